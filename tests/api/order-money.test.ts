import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, idempotencyKeys, labOrders, mailOutbox, refunds, sandboxRefunds, users } from '../../server/db/schema.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { changed, legacySourceCard, readyOrder } from './checkout-helpers.ts';
import { labWithAdmin, orderDetail, products, type Products } from './line-items-helpers.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callAs } from './photo-helpers.ts';
import { startStripeStub, type StripeStub, type StubCharge } from './stripe-stub.ts';

/** Refunds and cancellation through the payment adapter (docs/lab-rules.md §2), sandbox and Stripe. */

async function paidOrder(t: TestApp, p: Products, opts: { creditCents?: number } = {}) {
  const o = await readyOrder(t, p, opts);
  if (opts.creditCents) await changed(t, o.token, o.order, { type: 'credit', value: (opts.creditCents / 100).toFixed(2) });
  const res = await callAs(t.app, 'POST /lab_orders/:guid/checkout', { params: { guid: o.order }, body: {} }, { token: o.token });
  expect(res.status).toBe(200);
  const attributes = res.json().data.attributes;
  return { ...o, totalCents: Math.round(attributes.total * 100), charge: attributes.stripe_order_confirmation as string };
}
type RefundBody = InputOf<Contract['POST /lab_orders/:guid/refund']>['body'];
/** A refund through the contract; `key` sends a chosen Idempotency-Key (a replay after a crash). */
const refund = (t: TestApp, token: string, order: string, body: RefundBody, key?: string) =>
  callAs(t.app, 'POST /lab_orders/:guid/refund', { params: { guid: order }, body }, { token, headers: key ? { 'idempotency-key': key } : {} });
/** A cancellation through the contract; `key` as for refund. */
const cancel = (t: TestApp, token: string, order: string, key?: string) =>
  callAs(t.app, 'POST /lab_orders/:guid/cancel', { params: { guid: order } }, { token, headers: key ? { 'idempotency-key': key } : {} });
const mailsTo = async (t: TestApp, email: string) => (await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).map((m) => `${m.subject}\n${m.bodyText}`);

describe('with the sandbox', () => {
  let t: TestApp;
  let p: Products;
  let admin: string;
  beforeAll(async () => {
    ({ t, p, admin } = await labWithAdmin());
  });
  afterAll(() => t.close());

  it('refunds in parts up to what was paid, records each, and mails the photographer the amount', async () => {
    const o = await paidOrder(t, p);
    const first = await refund(t, admin, o.order, { refund_amount: '5.25', refund_note: 'One print was scratched' });
    expect(first.status).toBe(200);
    const detail = await orderDetail(t, admin, o.order);
    expect(detail.refund_amount).toBe(5.25);
    expect(detail.refunds).toEqual([expect.objectContaining({ amount: 5.25, note: 'One print was scratched', provider_refund_id: expect.stringMatching(/^re_sandbox_/) })]);
    expect(detail.events?.[0]).toMatchObject({ kind: 'refund', to: '5.25', detail: 'One print was scratched' });
    expect((await mailsTo(t, o.user.email)).find((m) => m.includes('refund of $5.25'))).toContain('One print was scratched');

    const left = o.totalCents - 525;
    const over = await refund(t, admin, o.order, { refund_amount: ((left + 1) / 100).toFixed(2) });
    expect(over.status).toBe(422);
    expect(expectErrorBody(over.json(), 422).message).toBe(`The refund is more than what is left to refund ($${(left / 100).toFixed(2)}).`);
    expect((await refund(t, admin, o.order, { refund_amount: (left / 100).toFixed(2) })).status).toBe(200);
    expect((await refund(t, admin, o.order, { refund_amount: '0.01' })).status).toBe(422);
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(row?.refundCents).toBe(o.totalCents);
    const provider = await t.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, o.charge));
    expect(provider.reduce((sum, r) => sum + r.amountCents, 0)).toBe(o.totalCents);
  });

  it('refuses amounts that are not dollars with 2 decimals above 0, and photographers (403)', async () => {
    const o = await paidOrder(t, p);
    for (const amount of ['0', '0.00', '-1', '1.005', 'ten', '']) {
      const res = await refund(t, admin, o.order, { refund_amount: amount });
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toBe('Enter the refund as an amount in dollars with at most 2 decimals, more than 0.');
    }
    expect((await refund(t, o.token, o.order, { refund_amount: '1.00' })).status).toBe(403);
    expect(await t.db.select().from(refunds)).toHaveLength(2);
  });

  it('ten refunds of one order at once never give back more than was paid', async () => {
    const o = await paidOrder(t, p);
    const share = Math.floor(o.totalCents / 3);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(t, admin, o.order, { refund_amount: (share / 100).toFixed(2) })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(7);
    const provider = await t.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, o.charge));
    expect(provider).toHaveLength(3);
  });

  it('cancels within the window: the card refunded, the credit returned, the photographer mailed', async () => {
    const o = await paidOrder(t, p, { creditCents: 300 });
    const res = await cancel(t, o.token, o.order);
    expect(res.status).toBe(200);
    expect(res.json().data.attributes.status).toBe('cancelled');
    const provider = await t.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, o.charge));
    expect(provider.map((r) => r.amountCents)).toEqual([o.totalCents]);
    const [owner] = await t.db.select().from(users).where(eq(users.guid, o.user.guid));
    expect(owner?.creditAvailableCents).toBe(300);
    expect((await t.db.select().from(creditLedger).where(eq(creditLedger.userGuid, o.user.guid))).map((l) => l.reason).sort()).toEqual(['cancel_returned', 'order']);
    expect((await mailsTo(t, o.user.email)).find((m) => m.includes('is cancelled'))).toContain(`Refunded to your card: $${(o.totalCents / 100).toFixed(2)}`);
    // Once cancelled, not again.
    expect((await cancel(t, o.token, o.order)).status).toBe(422);
  });

  it('refuses to cancel after the window or once the lab has started', async () => {
    const late = await paidOrder(t, p);
    // 31 minutes after the payment itself: paid_at is the database's time, while the test clock
    // stands where the app started, which a slow run leaves more than a minute behind.
    const [paidRow] = await t.db.select().from(labOrders).where(eq(labOrders.guid, late.order));
    const clockBefore = t.clock.now;
    t.clock.now = new Date((paidRow?.paidAt?.getTime() ?? Number.NaN) + 31 * 60_000);
    const res = await cancel(t, late.token, late.order);
    t.clock.now = clockBefore;
    expect(res.status).toBe(422);
    expect(expectErrorBody(res.json(), 422).message).toBe('This order can no longer be cancelled: the lab has started it or the 30 minutes have passed.');
    const started = await paidOrder(t, p);
    await callAs(t.app, 'PATCH /lab_orders/:guid', { params: { guid: started.order }, body: { type: 'status', value: 'printing' } }, { token: admin });
    expect((await cancel(t, started.token, started.order)).status).toBe(422);
    expect(await t.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, late.charge))).toEqual([]);
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, late.order));
    expect(row?.status).toBe('paid');
  });

  it('a refund or cancellation whose answer a crash lost, sent again under its key, refunds once', async () => {
    // What kill -9 after the refund commits and before its answer leaves: the key's claim with no
    // answer, taken over by the retry once a minute old.
    const crashed = (key: string) =>
      t.db.update(idempotencyKeys).set({ statusCode: null, response: null, createdAt: sql`now() - interval '2 minutes'` }).where(eq(idempotencyKeys.key, key));
    const o = await paidOrder(t, p);
    const body = { refund_amount: '3.00', refund_note: 'Sent twice?' };
    expect((await refund(t, admin, o.order, body, 'refund-crash')).status).toBe(200);
    await crashed('refund-crash');
    const again = await refund(t, admin, o.order, body, 'refund-crash');
    expect(again.status).toBe(200);
    expect((await orderDetail(t, admin, o.order)).refund_amount).toBe(3);
    expect(await t.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, o.charge))).toHaveLength(1);

    const c = await paidOrder(t, p);
    expect((await cancel(t, c.token, c.order, 'cancel-crash')).status).toBe(200);
    await crashed('cancel-crash');
    const cancelledAgain = await cancel(t, c.token, c.order, 'cancel-crash');
    expect(cancelledAgain.status).toBe(200);
    expect(cancelledAgain.json().data.attributes.status).toBe('cancelled');
    expect(await t.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, c.charge))).toHaveLength(1);
  });
});

describe('with Stripe (stubbed locally)', () => {
  let t: TestApp;
  let p: Products;
  let admin: string;
  let stripe: StripeStub;
  beforeAll(async () => {
    stripe = await startStripeStub();
    t = await createTestApp({ STRIPE_SECRET_KEY: 'sk_test_lab', STRIPE_PUBLISHABLE_KEY: 'pk_test_lab', STRIPE_API_URL: stripe.url });
    p = await products(t);
    const a = await createUser(t.db, { isAdmin: true });
    admin = await signIn(t.app, a.user.email, a.password);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('refunds through Stripe once per refund, with an idempotency key', async () => {
    const o = await paidOrder(t, p);
    expect((await refund(t, admin, o.order, { refund_amount: '2.00', refund_note: 'Late' })).status).toBe(200);
    expect(stripe.refunds.filter((r) => r.charge === o.charge).map((r) => r.amount)).toEqual([200]);
    const call = stripe.seen.find((s) => s.path === '/v1/refunds');
    expect(call?.idempotencyKey).toMatch(new RegExp(`^refund-${o.order}-`));
    const detail = await orderDetail(t, admin, o.order);
    expect(detail.refunds?.[0]?.provider_refund_id).toBe(stripe.refunds[0]?.id);
  });

  it('a refund Stripe refuses leaves nothing refunded (502) and the amount still refundable', async () => {
    const o = await paidOrder(t, p);
    // Refunded at Stripe behind the lab's back: Stripe refuses the lab's next refund.
    stripe.refunds.push({ id: 're_outside', object: 'refund', amount: o.totalCents, charge: o.charge, status: 'succeeded', metadata: {} });
    const res = await refund(t, admin, o.order, { refund_amount: '1.00' });
    expect(res.status).toBe(502);
    expectErrorBody(res.json(), 502);
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(row?.refundCents).toBe(0);
    expect(await t.db.select().from(refunds).where(eq(refunds.labOrderId, row?.id ?? 0))).toEqual([]);
  });

  it('a card saved before PaymentIntents (a customer source) is charged and refunded; so is an order charged then', async () => {
    const o = await readyOrder(t, p);
    const source = await legacySourceCard(t, stripe.url, o.user.guid, o.card);
    const res = await callAs(t.app, 'POST /lab_orders/:guid/checkout', { params: { guid: o.order }, body: {} }, { token: o.token });
    expect(res.status).toBe(200);
    const charge = res.json().data.attributes.stripe_order_confirmation as string;
    expect(stripe.charges.find((c) => c.id === charge)).toMatchObject({ source, status: 'succeeded' });
    expect((await refund(t, admin, o.order, { refund_amount: '1.50' })).status).toBe(200);
    expect(stripe.refunds.filter((r) => r.charge === charge).map((r) => r.amount)).toEqual([150]);
    // An order paid through the Charges API keeps its charge's id: refunded the same way.
    const old = await paidOrder(t, p);
    const legacy = { ...(stripe.charges.find((c) => c.id === old.charge) as StubCharge), id: 'ch_stub_charges_api', payment_method: null, payment_intent: null };
    stripe.charges.push(legacy);
    await t.db.update(labOrders).set({ paymentConfirmation: legacy.id }).where(eq(labOrders.guid, old.order));
    expect((await refund(t, admin, old.order, { refund_amount: '2.25' })).status).toBe(200);
    expect(stripe.refunds.filter((r) => r.charge === legacy.id).map((r) => r.amount)).toEqual([225]);
  });

  it('cancels through Stripe: one refund of the whole charge', async () => {
    const o = await paidOrder(t, p);
    expect((await cancel(t, o.token, o.order)).status).toBe(200);
    expect(stripe.refunds.filter((r) => r.charge === o.charge).map((r) => r.amount)).toEqual([o.totalCents]);
  });
});
