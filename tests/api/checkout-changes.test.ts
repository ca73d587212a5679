import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses, cards, discountCodes, labOrders, users } from '../../server/db/schema.ts';
import { toDollars } from '../../src/domain/money.ts';
import { BOUTIQUE_PACKAGING_CENTS, SHIPPING_CENTS } from '../../src/domain/pricing.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { addAddress, addCard, cartOrder, change, changed, checkoutOrder, discountCode, type OrderChange } from './checkout-helpers.ts';
import { callApi } from './contract-call.ts';
import { products, type Products } from './line-items-helpers.ts';
import { callAs } from './photo-helpers.ts';

/** The choices of the checkout screens: PATCH /lab_orders/{id} and its figures (docs/api.md §8). */
let t: TestApp;
let p: Products;
beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'recorded' });
  p = await products(t);
});
afterAll(() => t.close());

const NOT_OPEN = 'Order needs to be in open status to checkout!';

describe('the checkout order', () => {
  it('answers every checkout attribute with the figures of the server', async () => {
    const o = await cartOrder(t, p);
    const a = await checkoutOrder(t, o.token, o.order);
    expect(a).toMatchObject({
      discount_code: null,
      subtotal: toDollars(o.subtotalCents),
      discount: 0,
      credit_applied: 0,
      shipping_total: toDollars(SHIPPING_CENTS),
      total: toDollars(o.subtotalCents + SHIPPING_CENTS),
      boutique_shipping: false,
      boutique_shipping_note: null,
      boutique_shipping_price: 0,
      eligible_for_boutique_shipping: true,
      local_pickup: false,
      shipping_address: null,
      selected_card_to_use: null,
      selected_card_mask: null,
      used_saved_card: false,
      permission_to_share: false,
      paid_at: null,
      stripe_order_confirmation: null,
      client_name: null,
      status: 'open',
    });
    expect(typeof a.photographer_name).toBe('string');
  });
});

describe('PATCH /lab_orders/{id}', () => {
  it('discount_code: applies a code as typed, in any case, and removes it with ""', async () => {
    const o = await cartOrder(t, p);
    const code = await discountCode(t, { percent: 10 });
    const a = await changed(t, o.token, o.order, { type: 'discount_code', value: code.toLowerCase() });
    const discount = Math.round(o.subtotalCents / 10);
    expect(a).toMatchObject({ discount_code: { code }, discount: toDollars(discount), total: toDollars(o.subtotalCents - discount + SHIPPING_CENTS) });
    const removed = await changed(t, o.token, o.order, { type: 'discount_code', value: '' });
    expect(removed).toMatchObject({ discount_code: null, discount: 0, total: toDollars(o.subtotalCents + SHIPPING_CENTS) });
  });

  it('discount_code: an amount code never takes more than the subtotal', async () => {
    const o = await cartOrder(t, p);
    const code = await discountCode(t, { amountCents: o.subtotalCents + 5000 });
    const a = await changed(t, o.token, o.order, { type: 'discount_code', value: code });
    expect(a).toMatchObject({ discount: toDollars(o.subtotalCents), total: toDollars(SHIPPING_CENTS) });
  });

  it('discount_code: unknown, expired and used-up codes are refused and change nothing', async () => {
    const o = await cartOrder(t, p);
    // The server's clock is the test's (t.clock).
    const expired = await discountCode(t, { percent: 50, expiresAt: new Date(t.clock.now.getTime() - 1000) });
    const usedUp = await discountCode(t, { percent: 50, usageLimit: 1 });
    await t.db.update(discountCodes).set({ uses: 1 }).where(eq(discountCodes.code, usedUp));
    for (const value of ['NOPE-NOT-A-CODE', usedUp, 'x', 42]) {
      const res = await change(t, o.token, o.order, { type: 'discount_code', value });
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toBe('This is not a valid discount code.');
    }
    // An expired code says when it ended, so the photographer knows it is not a typing slip.
    const late = await change(t, o.token, o.order, { type: 'discount_code', value: expired });
    expect(expectErrorBody(late.json(), 422).message).toMatch(/^The discount code \S+ expired on \d{4}-\d{2}-\d{2}\.$/);
    expect((await checkoutOrder(t, o.token, o.order)).discount_code).toBeNull();
  });

  it('credit: applies up to what is available, clamped to what is owed; more than available is refused', async () => {
    const o = await cartOrder(t, p, { creditCents: 100_000 });
    const owed = o.subtotalCents + SHIPPING_CENTS;
    expect(await changed(t, o.token, o.order, { type: 'credit', value: '5.25' })).toMatchObject({ credit_applied: 5.25, total: toDollars(owed - 525) });
    expect(await changed(t, o.token, o.order, { type: 'credit', value: 3 })).toMatchObject({ credit_applied: 3, total: toDollars(owed - 300) });
    // All of it: no more than owed is applied, the total is 0.
    expect(await changed(t, o.token, o.order, { type: 'credit', value: 1000 })).toMatchObject({ credit_applied: toDollars(owed), total: 0 });
    const over = await change(t, o.token, o.order, { type: 'credit', value: '1000.01' });
    expect(over.status).toBe(422);
    expect(expectErrorBody(over.json(), 422).message).toBe('You do not have this much credit available.');
    for (const value of ['-1', '1.234', 'lots', '', true]) expect((await change(t, o.token, o.order, { type: 'credit', value })).status).toBe(422);
    expect(await changed(t, o.token, o.order, { type: 'credit', value: 0 })).toMatchObject({ credit_applied: 0 });
  });

  it('used_saved_card: a kept card of the photographer, or "" to clear; no one else\'s card', async () => {
    const o = await cartOrder(t, p);
    const card = await addCard(t, o.token, 'tok_mastercard');
    expect(await changed(t, o.token, o.order, { type: 'used_saved_card', value: card })).toMatchObject({ selected_card_to_use: card, selected_card_mask: 'MASTERCARD •••• 4444', used_saved_card: true });
    const other = await cartOrder(t, p);
    const theirs = await addCard(t, other.token);
    for (const value of [theirs, '00000000-0000-4000-8000-000000000000', 'not-a-card']) {
      const res = await change(t, o.token, o.order, { type: 'used_saved_card', value });
      expect(res.status).toBe(404);
      expect(expectErrorBody(res.json(), 404).message).toBe('This card does not exist.');
    }
    expect(await changed(t, o.token, o.order, { type: 'used_saved_card', value: '' })).toMatchObject({ selected_card_to_use: null, used_saved_card: false });
  });

  it('local_pickup: no shipping while on', async () => {
    const o = await cartOrder(t, p);
    expect(await changed(t, o.token, o.order, { type: 'local_pickup', value: true })).toMatchObject({ local_pickup: true, shipping_total: 0, total: toDollars(o.subtotalCents) });
    expect(await changed(t, o.token, o.order, { type: 'local_pickup', value: false })).toMatchObject({ local_pickup: false, shipping_total: toDollars(SHIPPING_CENTS) });
    expect((await change(t, o.token, o.order, { type: 'local_pickup', value: 'maybe' })).status).toBe(422);
  });

  it('shipping_address_id: an address of the photographer, kept on the order; "" clears it', async () => {
    const o = await cartOrder(t, p);
    const address = await addAddress(t, o.token);
    const a = await changed(t, o.token, o.order, { type: 'shipping_address_id', value: address });
    expect(a.shipping_address).toEqual({ guid: address, recipient: 'Dorothea Lange', street: '1 Main St', street_2: null, city: 'Nashville', state_province: 'TN', zip: '37201', phone_number: null, email: null });
    // Removing it from the profile leaves the order's copy.
    await t.db.delete(addresses).where(eq(addresses.guid, address));
    expect((await checkoutOrder(t, o.token, o.order)).shipping_address).toMatchObject({ guid: address });
    const other = await cartOrder(t, p);
    const theirs = await addAddress(t, other.token);
    const res = await change(t, o.token, o.order, { type: 'shipping_address_id', value: theirs });
    expect(res.status).toBe(404);
    expect(expectErrorBody(res.json(), 404).message).toBe('This address does not exist.');
    expect((await changed(t, o.token, o.order, { type: 'shipping_address_id', value: '' })).shipping_address).toBeNull();
  });

  it('boutique_shipping: a note of 1 to 300 characters adds the packaging once; false removes both', async () => {
    const o = await cartOrder(t, p);
    const on = await changed(t, o.token, o.order, { type: 'boutique_shipping', value: true, boutique_shipping_note: 'Gift for Mum' });
    expect(on).toMatchObject({ boutique_shipping: true, boutique_shipping_note: 'Gift for Mum', boutique_shipping_price: toDollars(BOUTIQUE_PACKAGING_CENTS), total: toDollars(o.subtotalCents + SHIPPING_CENTS + BOUTIQUE_PACKAGING_CENTS) });
    for (const note of [undefined, '', '   ', 'x'.repeat(301)]) {
      const res = await change(t, o.token, o.order, { type: 'boutique_shipping', value: true, ...(note === undefined ? {} : { boutique_shipping_note: note }) });
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toBe('The boutique packaging note is 1 to 300 characters.');
    }
    expect((await changed(t, o.token, o.order, { type: 'boutique_shipping', value: true, boutique_shipping_note: 'y'.repeat(300) })).boutique_shipping_note).toHaveLength(300);
    const off = await changed(t, o.token, o.order, { type: 'boutique_shipping', value: false });
    expect(off).toMatchObject({ boutique_shipping: false, boutique_shipping_note: null, boutique_shipping_price: 0, total: toDollars(o.subtotalCents + SHIPPING_CENTS) });
  });

  it("permission_to_share: true unless the value is 'no'", async () => {
    const o = await cartOrder(t, p);
    expect((await changed(t, o.token, o.order, { type: 'permission_to_share', value: 'yes' })).permission_to_share).toBe(true);
    expect((await changed(t, o.token, o.order, { type: 'permission_to_share', value: 'no' })).permission_to_share).toBe(false);
    expect((await changed(t, o.token, o.order, { type: 'permission_to_share', value: true })).permission_to_share).toBe(true);
  });

  it('updated_at, and an unknown type refused', async () => {
    const o = await cartOrder(t, p);
    expect((await change(t, o.token, o.order, { type: 'updated_at', value: 'now' })).status).toBe(200);
    expect((await change(t, o.token, o.order, { type: 'gift_wrap', value: 'yes' })).status).toBe(422);
    // status is the lab's (admin type, issue 13): a photographer is refused.
    expect((await change(t, o.token, o.order, { type: 'status', value: 'paid' })).status).toBe(403);
    expect((await checkoutOrder(t, o.token, o.order)).status).toBe('open');
  });

  it("another photographer's order is 404; an admin may change it; a closed order is refused", async () => {
    const o = await cartOrder(t, p);
    const other = await cartOrder(t, p);
    const res = await change(t, other.token, o.order, { type: 'local_pickup', value: true });
    expect(res.status).toBe(404);
    const { user: admin, password } = await createUser(t.db, { isAdmin: true });
    const adminToken = await signIn(t.app, admin.email, password);
    expect((await changed(t, adminToken, o.order, { type: 'local_pickup', value: true })).local_pickup).toBe(true);
    await t.db.update(labOrders).set({ status: 'paid' }).where(eq(labOrders.guid, o.order));
    const closed = await change(t, o.token, o.order, { type: 'local_pickup', value: false });
    expect(closed.status).toBe(422);
    expect(expectErrorBody(closed.json(), 422).message).toBe(NOT_OPEN);
  });

  it('figures sent by the client are not read', async () => {
    const o = await cartOrder(t, p);
    // Figures the contract does not take, as a tampered client would send them.
    const a = await changed(t, o.token, o.order, { type: 'local_pickup', value: true, total: 0.01, subtotal: 0.01, discount: 999, credit_applied: 999 } as OrderChange);
    expect(a).toMatchObject({ subtotal: toDollars(o.subtotalCents), discount: 0, credit_applied: 0, total: toDollars(o.subtotalCents) });
  });
});

describe('addresses and cards from checkout', () => {
  it('POST /addresses with lab_order_id and update_address_on_order sets the address on the order', async () => {
    const o = await cartOrder(t, p);
    const address = await addAddress(t, o.token, { lab_order_id: o.order, update_address_on_order: true, recipient_name: 'Vivian Maier' });
    expect((await checkoutOrder(t, o.token, o.order)).shipping_address).toMatchObject({ guid: address, recipient: 'Vivian Maier' });
  });

  it("POST /addresses for someone else's or a closed order saves nothing", async () => {
    const o = await cartOrder(t, p);
    const other = await cartOrder(t, p);
    const res = await callAs(t.app, 'POST /addresses', { body: { street_address: '2 Side St', city: 'Memphis', state: 'TN', zip: '38103', lab_order_id: o.order, update_address_on_order: true } }, { token: other.token });
    expect(res.status).toBe(404);
    expect(await t.db.select().from(addresses).where(eq(addresses.userGuid, other.user.guid))).toHaveLength(0);
    await t.db.update(labOrders).set({ status: 'shipped' }).where(eq(labOrders.guid, other.order));
    const closed = await callAs(t.app, 'POST /addresses', { body: { street_address: '2 Side St', city: 'Memphis', state: 'TN', zip: '38103', lab_order_id: other.order, update_address_on_order: true } }, { token: other.token });
    expect(closed.status).toBe(422);
    expect(await t.db.select().from(addresses).where(eq(addresses.userGuid, other.user.guid))).toHaveLength(0);
  });

  it('POST /accounts/create_card with lab_order_id selects an unkept card, never listed, never another order\'s', async () => {
    const o = await cartOrder(t, p);
    const card = await addCard(t, o.token, 'tok_mastercard', o.order);
    expect(await checkoutOrder(t, o.token, o.order)).toMatchObject({ selected_card_to_use: card, selected_card_mask: 'MASTERCARD •••• 4444', used_saved_card: false });
    const profile = (await callApi(t.app, 'GET /profile', {}, { token: o.token })).json();
    expect(profile.cards.data).toEqual([]);
    expect(profile.default_card).toBeNull();
    const [row] = await t.db.select().from(cards).where(eq(cards.id, card));
    expect(row?.kept).toBe(false);
    // Chosen again for this very order (the screen re-sends its choice): still this order's card.
    expect(await changed(t, o.token, o.order, { type: 'used_saved_card', value: card })).toMatchObject({ selected_card_to_use: card, used_saved_card: false });
    // Not to be chosen for another order, made primary or removed from a list it is not in.
    const second = await cartOrder(t, p);
    expect((await change(t, o.token, second.order, { type: 'used_saved_card', value: card })).status).toBe(404);
    expect((await callAs(t.app, 'POST /accounts/update_default_card', { body: { make_primary: card } }, { token: o.token })).status).toBe(404);
    const [user] = await t.db.select().from(users).where(eq(users.guid, o.user.guid));
    expect(user?.defaultCardId).toBeNull();
  });

  it("POST /accounts/create_card for someone else's order saves no card", async () => {
    const o = await cartOrder(t, p);
    const other = await cartOrder(t, p);
    const res = await callAs(t.app, 'POST /accounts/create_card', { body: { token_id: 'tok_visa', lab_order_id: o.order } }, { token: other.token });
    expect(res.status).toBe(404);
    expect(await t.db.select().from(cards).where(eq(cards.userGuid, other.user.guid))).toHaveLength(0);
  });
});
