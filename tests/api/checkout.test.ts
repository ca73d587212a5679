import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cards, creditLedger, discountCodes, labOrders, lineItems, mailOutbox, payments, sandboxCharges, users } from '../../server/db/schema.ts';
import { finishingChoiceCents } from '../../src/domain/catalogue.ts';
import { toCents, toDollars } from '../../src/domain/money.ts';
import { BOUTIQUE_PACKAGING_CENTS, SHIPPING_CENTS } from '../../src/domain/pricing.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { addAddress, addCard, cartOrder, changed, checkoutOrder, discountCode, expectOnePayment, payOrder, readyOrder, secondOrder, type CheckoutBody } from './checkout-helpers.ts';
import { callApi } from './contract-call.ts';
import { addItems, addPhotos, payload, products, type Products } from './line-items-helpers.ts';

/** POST /lab_orders/{id}/checkout on the sandbox provider (docs/api.md §8; issue 12). */
let t: TestApp;
let p: Products;
beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'recorded' });
  p = await products(t);
});
afterAll(() => t.close());

const pay = (token: string, order: string, body: CheckoutBody = {}) => payOrder(t, token, order, body);
const orderRow = async (guid: string) => (await t.db.select().from(labOrders).where(eq(labOrders.guid, guid)))[0];
const chargesOf = async (guid: string) => (await t.db.select().from(sandboxCharges)).filter((c) => c.metadata.lab_order === guid);
const creditOf = async (userGuid: string) => (await t.db.select().from(users).where(eq(users.guid, userGuid)))[0]?.creditAvailableCents;
const receiptsTo = (email: string) => t.printed.filter((m) => m.startsWith(`Mail to ${email}: Receipt`));

describe('checkout', () => {
  it('charges the figures of the server once, marks the order paid and mails the receipt', async () => {
    const o = await readyOrder(t, p, { quantity: 3 });
    const res = await pay(o.token, o.order);
    expect(res.status).toBe(200);
    const a = res.json().data.attributes;
    const total = o.subtotalCents + SHIPPING_CENTS;
    expect(a).toMatchObject({ status: 'paid', total: toDollars(total), subtotal: toDollars(o.subtotalCents) });
    expect(a.paid_at).toEqual(expect.any(String));
    expect(a.stripe_order_confirmation).toMatch(/^ch_sandbox_/);
    const charges = await chargesOf(o.order);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amountCents: total, status: 'succeeded', id: a.stripe_order_confirmation });
    const [receipt] = receiptsTo(o.user.email);
    expect(receipt).toContain('IMG_1000.jpg');
    expect(receipt).toContain(`${p.paper.name} ${p.size.name}, finishing: none, quantity 3`);
    expect(receipt).toMatch(/Total:\s+\$\d/);
    expect(receipt).toContain(`$${(total / 100).toFixed(2)}`);
    // Paid: nothing about it changes any more.
    const again = await pay(o.token, o.order);
    expect(again.status).toBe(422);
    expect(expectErrorBody(again.json(), 422).message).toBe('Order needs to be in open status to checkout!');
    expect(await chargesOf(o.order)).toHaveLength(1);
    // Set open again by the lab (status is the admin's, issue 13): still not charged twice.
    await t.db.update(labOrders).set({ status: 'open' }).where(eq(labOrders.guid, o.order));
    expect((await pay(o.token, o.order)).status).toBe(422);
    expect(await chargesOf(o.order)).toHaveLength(1);
  });

  it('ignores figures the client sends', async () => {
    const o = await readyOrder(t, p);
    // Figures the contract does not take, as a tampered client would send them.
    const res = await pay(o.token, o.order, { total: 0.01, subtotal: 0.01, amount: 1, credit_applied: 999 } as CheckoutBody);
    expect(res.status).toBe(200);
    expect((await chargesOf(o.order))[0]?.amountCents).toBe(o.subtotalCents + SHIPPING_CENTS);
  });

  it("answers 404 for another photographer's order and charges nothing", async () => {
    const o = await readyOrder(t, p);
    const other = await cartOrder(t, p);
    const res = await pay(other.token, o.order);
    expect(res.status).toBe(404);
    expect(await chargesOf(o.order)).toHaveLength(0);
    expect((await orderRow(o.order))?.status).toBe('open');
  });

  it('refuses an order that is not open, one without line items, and one that is not ready', async () => {
    const shipped = await readyOrder(t, p);
    await t.db.update(labOrders).set({ status: 'shipped' }).where(eq(labOrders.guid, shipped.order));
    expect(expectErrorBody((await pay(shipped.token, shipped.order)).json(), 422).message).toBe('Order needs to be in open status to checkout!');

    const empty = await readyOrder(t, p);
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, empty.order));
    await t.db.delete(lineItems).where(eq(lineItems.labOrderId, row?.id ?? 0));
    expect(expectErrorBody((await pay(empty.token, empty.order)).json(), 422).message).toBe('You have no line items!');

    const noCard = await cartOrder(t, p);
    await changed(t, noCard.token, noCard.order, { type: 'shipping_address_id', value: await addAddress(t, noCard.token) });
    const noAddress = await cartOrder(t, p);
    await changed(t, noAddress.token, noAddress.order, { type: 'used_saved_card', value: await addCard(t, noAddress.token) });
    for (const o of [noCard, noAddress]) {
      const res = await pay(o.token, o.order);
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toBe('You need a shipping address and credit card to checkout!');
    }
    expect((await t.db.select().from(sandboxCharges)).filter((c) => [shipped, empty, noCard, noAddress].some((o) => c.metadata.lab_order === o.order))).toHaveLength(0);
  });

  it('a card and local pickup is enough; the shipping is then not charged', async () => {
    const o = await cartOrder(t, p);
    await changed(t, o.token, o.order, { type: 'used_saved_card', value: await addCard(t, o.token) });
    await changed(t, o.token, o.order, { type: 'local_pickup', value: true });
    expect((await pay(o.token, o.order)).status).toBe(200);
    expect((await chargesOf(o.order))[0]?.amountCents).toBe(o.subtotalCents);
  });

  it('charges the discount, the credit and the boutique packaging as the figures show them', async () => {
    const o = await readyOrder(t, p, { quantity: 4, creditCents: 700 });
    const code = await discountCode(t, { percent: 10, usageLimit: 5 });
    await changed(t, o.token, o.order, { type: 'discount_code', value: code });
    await changed(t, o.token, o.order, { type: 'credit', value: '7.00' });
    const shown = await changed(t, o.token, o.order, { type: 'boutique_shipping', value: true, boutique_shipping_note: 'Wrap in tissue' });
    const discount = Math.round(o.subtotalCents / 10);
    const total = o.subtotalCents - discount - 700 + SHIPPING_CENTS + BOUTIQUE_PACKAGING_CENTS;
    expect(shown.total).toBe(toDollars(total));
    expect((await pay(o.token, o.order)).status).toBe(200);
    expect((await chargesOf(o.order))[0]?.amountCents).toBe(total);
    expect(await creditOf(o.user.guid)).toBe(0);
    expect((await t.db.select().from(discountCodes).where(eq(discountCodes.code, code)))[0]?.uses).toBe(1);
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(await t.db.select({ amount: creditLedger.amountCents }).from(creditLedger).where(eq(creditLedger.labOrderId, row?.id ?? 0))).toEqual([{ amount: -700 }]);
    const [receipt] = receiptsTo(o.user.email);
    expect(receipt).toContain(`Discount (${code}):`);
    expect(receipt).toContain('-$7.00');
    expect(receipt).toContain('$15.00');
    expect(receipt).toContain('Boutique packaging note: Wrap in tissue');
  });

  it('credit covering the whole total needs no card and charges nothing', async () => {
    const o = await cartOrder(t, p, { creditCents: 1_000_000 });
    await changed(t, o.token, o.order, { type: 'local_pickup', value: true });
    await changed(t, o.token, o.order, { type: 'credit', value: 10_000 });
    const res = await pay(o.token, o.order);
    expect(res.status).toBe(200);
    expect(res.json().data.attributes).toMatchObject({ status: 'paid', total: 0, credit_applied: toDollars(o.subtotalCents), stripe_order_confirmation: null });
    expect(await chargesOf(o.order)).toHaveLength(0);
    expect(await creditOf(o.user.guid)).toBe(1_000_000 - o.subtotalCents);
    expect(receiptsTo(o.user.email)).toHaveLength(1);
  });

  it('a declined card leaves the order open and spends nothing; a retry with a good card pays once', async () => {
    const o = await readyOrder(t, p, { tokenId: 'tok_chargeCustomerFail', creditCents: 300 });
    const code = await discountCode(t, { amountCents: 100, usageLimit: 1 });
    await changed(t, o.token, o.order, { type: 'discount_code', value: code });
    await changed(t, o.token, o.order, { type: 'credit', value: 3 });
    const declined = await pay(o.token, o.order);
    expect(declined.status).toBe(402);
    expect(expectErrorBody(declined.json(), 402)).toMatchObject({ class_name: 'CardError', message: 'Your card was declined.' });
    expect((await orderRow(o.order))?.status).toBe('open');
    expect(await creditOf(o.user.guid)).toBe(300);
    expect((await t.db.select().from(discountCodes).where(eq(discountCodes.code, code)))[0]?.uses).toBe(0);
    // The same card again: declined again, as a new attempt (a new key), still nothing spent.
    expect((await pay(o.token, o.order)).status).toBe(402);
    const good = await addCard(t, o.token, 'tok_visa', o.order);
    expect((await checkoutOrder(t, o.token, o.order)).selected_card_to_use).toBe(good);
    const paid = await pay(o.token, o.order, { save_card: true });
    expect(paid.status).toBe(200);
    const charges = await chargesOf(o.order);
    expect(charges.map((c) => c.status).sort()).toEqual(['declined', 'declined', 'succeeded']);
    expect(new Set(charges.map((c) => c.idempotencyKey)).size).toBe(3);
    expect(await creditOf(o.user.guid)).toBe(0);
    expect((await t.db.select().from(discountCodes).where(eq(discountCodes.code, code)))[0]?.uses).toBe(1);
    // SAVE CARD FOR FUTURE USE: the card typed at checkout joins the list.
    expect((await t.db.select().from(cards).where(eq(cards.id, good)))[0]?.kept).toBe(true);
    expect(receiptsTo(o.user.email)).toHaveLength(1);
  });

  it('a card typed at checkout without SAVE CARD FOR FUTURE USE stays out of the list', async () => {
    const o = await cartOrder(t, p);
    await changed(t, o.token, o.order, { type: 'shipping_address_id', value: await addAddress(t, o.token) });
    const card = await addCard(t, o.token, 'tok_visa', o.order);
    expect((await pay(o.token, o.order, { save_card: false })).status).toBe(200);
    expect((await t.db.select().from(cards).where(eq(cards.id, card)))[0]?.kept).toBe(false);
    expect((await callApi(t.app, 'GET /profile', {}, { token: o.token })).json().cards.data).toEqual([]);
  });

  it('five checkouts of one order at once: one charge, one paid order, one receipt', async () => {
    const o = await readyOrder(t, p);
    const answers = await Promise.all(Array.from({ length: 5 }, () => pay(o.token, o.order)));
    expectOnePayment(answers);
    expect(await chargesOf(o.order)).toHaveLength(1);
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(await t.db.select().from(payments).where(and(eq(payments.labOrderId, row?.id ?? 0), eq(payments.status, 'succeeded')))).toHaveLength(1);
    expect(receiptsTo(o.user.email)).toHaveLength(1);
  });

  it('an admin may place a photographer\'s order; the receipt goes to the photographer', async () => {
    const o = await readyOrder(t, p);
    const { user: admin, password } = await createUser(t.db, { isAdmin: true });
    const res = await pay(await signIn(t.app, admin.email, password), o.order);
    expect(res.status).toBe(200);
    expect(receiptsTo(o.user.email)).toHaveLength(1);
  });

  it('refuses a code that expired after it was applied, and one used up by another order meanwhile', async () => {
    const o = await readyOrder(t, p);
    const expiresAt = new Date(t.clock.now.getTime() + 60_000);
    const code = await discountCode(t, { percent: 10, expiresAt });
    await changed(t, o.token, o.order, { type: 'discount_code', value: code });
    t.clock.now = new Date(t.clock.now.getTime() + 120_000);
    const res = await pay(o.token, o.order);
    expect(res.status).toBe(422);
    // The last day it could be used: the day of the millisecond before it ended.
    expect(expectErrorBody(res.json(), 422).message).toBe(`The discount code ${code} expired on ${new Date(expiresAt.getTime() - 1).toISOString().slice(0, 10)}.`);

    const first = await readyOrder(t, p);
    const second = await readyOrder(t, p);
    const last = await discountCode(t, { amountCents: 200, usageLimit: 1 });
    await changed(t, first.token, first.order, { type: 'discount_code', value: last });
    await changed(t, second.token, second.order, { type: 'discount_code', value: last });
    expect((await pay(first.token, first.order)).status).toBe(200);
    const late = await pay(second.token, second.order);
    expect(late.status).toBe(422);
    expect(expectErrorBody(late.json(), 422).message).toBe('This is not a valid discount code.');
    expect(await chargesOf(second.order)).toHaveLength(0);
  });

  it('credit is never spent twice: two orders racing for the same credit', async () => {
    const a = await readyOrder(t, p, { creditCents: 500 });
    const b = await secondOrder(t, p, a);
    await changed(t, a.token, b, { type: 'used_saved_card', value: a.card });
    await changed(t, a.token, b, { type: 'shipping_address_id', value: a.address });
    await changed(t, a.token, a.order, { type: 'credit', value: 5 });
    await changed(t, a.token, b, { type: 'credit', value: 5 });
    const [one, two] = await Promise.all([pay(a.token, a.order), pay(a.token, b)]);
    expect([one.status, two.status].sort()).toEqual([200, 422]);
    const refused = one.status === 422 ? one : two;
    expect(expectErrorBody(refused.json(), 422).message).toBe('You do not have this much credit available.');
    expect(await creditOf(a.user.guid)).toBe(0);
    const spent = await t.db.select().from(creditLedger).where(and(eq(creditLedger.userGuid, a.user.guid), eq(creditLedger.reason, 'order')));
    expect(spent.map((r) => r.amountCents)).toEqual([-500]);
  });

  it("accrues the referrer's credit when a referred photographer's order is paid", async () => {
    const referrer = await createUser(t.db, { referralCode: `REF${Date.now().toString(36).toUpperCase()}` });
    const o = await readyOrder(t, p, { quantity: 5 });
    await t.db.update(users).set({ referredByGuid: referrer.user.guid }).where(eq(users.guid, o.user.guid));
    expect((await pay(o.token, o.order)).status).toBe(200);
    expect(await creditOf(referrer.user.guid)).toBe(Math.round((o.subtotalCents * t.config.referralCreditPercent) / 100));
  });

  it('the receipt names each line with its finishing and every figure, in dollars', async () => {
    const o = await readyOrder(t, p);
    const [mat, glass, stain] = p.frameDetails;
    const framedCents = toCents(p.size.price) + finishingChoiceCents({ service: p.frame, details: { frame_mat: mat, glass, stain } });
    const photo = (await addPhotos(t, o.order, 1))[0] ?? '';
    const framed = payload(photo, p.size.guid, { quantity: 2, finishing_service: p.frame.guid, finishing_service_detail: mat ?? null, finishing_service_details: p.frameDetails });
    expect((await addItems(t, o.token, o.order, [framed])).status).toBe(201);
    const paid = await pay(o.token, o.order);
    expect(paid.status).toBe(200);
    const a = paid.json().data.attributes;
    const [receipt = ''] = receiptsTo(o.user.email);
    const [subject = ''] = receipt.split('\n');
    expect(subject).toBe(`Mail to ${o.user.email}: Receipt for your order ${a.order_name} ($${a.total.toFixed(2)})`);
    expect(receipt).toContain(`- IMG_1000.jpg: ${p.paper.name} ${p.size.name}, finishing: none, quantity 2, $${(o.subtotalCents / 100).toFixed(2)}`);
    // The frame's profile in the words of the cart, never its short code.
    expect(receipt).toContain(`${p.paper.name} ${p.size.name}, finishing: ${p.frame.name}, 1.5" profile, `);
    expect(receipt).toContain(`quantity 2, $${((framedCents * 2) / 100).toFixed(2)}`);
    for (const [label, dollars] of [['Prints', a.prints_total], ['Finishing', a.finishing_total], ['Subtotal', a.subtotal], ['Shipping \\(STANDARD\\)', a.shipping_total], ['Total', a.total]] as const) {
      expect(receipt).toMatch(new RegExp(`${label}:\\s+\\$${dollars.toFixed(2).replace('.', '\\.')}`));
    }
    expect(receipt).toMatch(/Discount:\s+-\$0\.00/);
    expect(receipt).toMatch(/Credit applied:\s+-\$0\.00/);
    expect(receipt).toMatch(/Boutique packaging:\s+\$0\.00/);
    expect(receipt).toContain('1 Main St');
  });

  it('queues the receipt in the same transaction as the payment: one outbox row per paid order', async () => {
    const o = await readyOrder(t, p);
    expect((await pay(o.token, o.order)).status).toBe(200);
    const rows = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, o.user.email));
    expect(rows.filter((r) => r.subject.startsWith('Receipt'))).toHaveLength(1);
    expect(rows[0]?.status).toBe('sent');
  });
});
