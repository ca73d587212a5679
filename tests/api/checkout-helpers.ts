import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { cards, labOrders, users } from '../../server/db/schema.ts';
import type { ServerDeps } from '../../server/deps.ts';
import { beginCheckout, chargeDescription, type Begun } from '../../server/services/checkout-payment.ts';
import { createDiscountCode, type NewDiscountCode } from '../../server/services/discount-service.ts';
import { toCents } from '../../src/domain/money.ts';
import { expectErrorBody, type TestApp } from './helper.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { addItems, addPhotos, orderWithPhotos, payload, type Products } from './line-items-helpers.ts';
import { callApi, type CallAnswer } from './contract-call.ts';
import { callAs, newOrder } from './photo-helpers.ts';

/** Checkout's API tests (docs/api.md §8): an order with a cart, and the calls of the checkout screens. */

export interface CartOrder {
  user: { guid: string; email: string };
  token: string;
  order: string;
  /** What its line items cost, from the catalogue's price. */
  subtotalCents: number;
}

/** A photographer with an open order of `quantity` prints of one size (and the credit given). */
export async function cartOrder(t: TestApp, p: Products, opts: { quantity?: number; creditCents?: number } = {}): Promise<CartOrder> {
  const { user, token, order, photos } = await orderWithPhotos(t, 1);
  const quantity = opts.quantity ?? 2;
  const res = await addItems(t, token, order, [payload(photos[0] ?? '', p.size.guid, { quantity })]);
  expect(res.status).toBe(201);
  if (opts.creditCents) await t.db.update(users).set({ creditAvailableCents: opts.creditCents }).where(eq(users.guid, user.guid));
  return { user, token, order, subtotalCents: toCents(p.size.price) * quantity };
}

/** Another open order of the same photographer, with its own cart. */
export async function secondOrder(t: TestApp, p: Products, owner: CartOrder): Promise<string> {
  const order = await newOrder(t, owner.token, `Second ${Math.random().toString(36).slice(2)}`);
  const [photo = ''] = await addPhotos(t, order, 1);
  expect((await addItems(t, owner.token, order, [payload(photo, p.size.guid, { quantity: 2 })])).status).toBe(201);
  return order;
}

export type Attributes = Record<string, unknown> & { subtotal: number; discount: number; credit_applied: number; shipping_total: number; boutique_shipping_price: number; total: number; status: string };

/** A change of an order by {type, value} (PATCH /lab_orders/{id}). */
export type OrderChange = InputOf<Contract['PATCH /lab_orders/:guid']>['body'];

export const change = (t: TestApp, token: string, order: string, body: OrderChange) => callAs(t.app, 'PATCH /lab_orders/:guid', { params: { guid: order }, body }, { token });

/** PATCH that must succeed; answers the checkout order's attributes. */
export async function changed(t: TestApp, token: string, order: string, body: OrderChange): Promise<Attributes> {
  const res = await change(t, token, order, body);
  expect(res.status).toBe(200);
  return res.json().data.attributes as Attributes;
}

export async function checkoutOrder(t: TestApp, token: string, order: string): Promise<Attributes> {
  const res = await callApi(t.app, 'GET /lab_orders/:guid/retrieve_full_order', { params: { guid: order }, query: {} }, { token });
  expect(res.status).toBe(200);
  return res.json().data.attributes;
}

export type CheckoutBody = InputOf<Contract['POST /lab_orders/:guid/checkout']>['body'];

/** Checkout's PAY (POST /lab_orders/{id}/checkout) with a fresh Idempotency-Key. */
export const payOrder = (t: TestApp, token: string, order: string, body: CheckoutBody = {}) =>
  callAs(t.app, 'POST /lab_orders/:guid/checkout', { params: { guid: order }, body }, { token });

/** Saves a card from a test token; with `order`, as checkout does (unkept, selected for the order). Answers its id. */
export async function addCard(t: TestApp, token: string, tokenId = 'tok_visa', order?: string): Promise<string> {
  const before = new Set((await callApi(t.app, 'GET /profile', {}, { token })).json().cards.data.map((c) => c.id));
  const res = await callAs(t.app, 'POST /accounts/create_card', { body: { token_id: tokenId, ...(order ? { lab_order_id: order } : {}) } }, { token });
  expect(res.status).toBe(200);
  if (order) return (await checkoutOrder(t, token, order)).selected_card_to_use as string;
  const added = res.json().cards.data.find((c) => !before.has(c.id));
  if (!added) throw new Error('the card is not in the list');
  return added.id;
}

/**
 * Turns a photographer's saved card into one saved before PaymentIntents: a card source attached
 * to their customer at Stripe (stubbed at `stripeUrl`), its id kept by the lab. Answers that id.
 */
export async function legacySourceCard(t: TestApp, stripeUrl: string, userGuid: string, cardId: string): Promise<string> {
  const [owner] = await t.db.select({ customer: users.stripeCustomerId }).from(users).where(eq(users.guid, userGuid));
  const attached = await fetch(`${stripeUrl}/v1/customers/${owner?.customer ?? ''}/sources`, { method: 'POST', body: new URLSearchParams({ source: 'tok_visa' }) });
  const source = ((await attached.json()) as { id: string }).id;
  await t.db.update(cards).set({ providerCardId: source }).where(eq(cards.id, cardId));
  return source;
}

export async function addAddress(t: TestApp, token: string, extra: Partial<InputOf<Contract['POST /addresses']>['body']> = {}): Promise<string> {
  const res = await callAs(t.app, 'POST /addresses', { body: { street_address: '1 Main St', recipient_name: 'Dorothea Lange', city: 'Nashville', state: 'TN', zip: '37201', ...extra } }, { token });
  expect(res.status).toBe(200);
  const list = res.json().addresses.data;
  return list[list.length - 1]?.guid ?? '';
}

let codes = 0;
/** A discount code made as the CLI makes it; answers the code. */
export async function discountCode(t: TestApp, rule: Omit<NewDiscountCode, 'code'>): Promise<string> {
  codes += 1;
  const code = `TEST-${codes}-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  await createDiscountCode(t.db, { code, ...rule });
  return code;
}

/** An order ready to pay with a saved card and an address. */
export async function readyOrder(t: TestApp, p: Products, opts: { quantity?: number; creditCents?: number; tokenId?: string } = {}) {
  const o = await cartOrder(t, p, opts);
  const card = await addCard(t, o.token, opts.tokenId ?? 'tok_visa');
  await changed(t, o.token, o.order, { type: 'used_saved_card', value: card });
  const address = await addAddress(t, o.token);
  await changed(t, o.token, o.order, { type: 'shipping_address_id', value: address });
  return { ...o, card, address };
}

/**
 * The answers of checkouts of one order sent at once: each is the paid order (it paid it, or
 * waited for the one that did) or, when it began after the order was already paid, 'not open';
 * all the paid answers name the same charge.
 */
export function expectOnePayment(answers: CallAnswer<'POST /lab_orders/:guid/checkout'>[]): void {
  const paid = answers.filter((r) => r.status === 200);
  expect(paid.length).toBeGreaterThan(0);
  for (const r of answers.filter((a) => a.status !== 200)) {
    expect(r.status).toBe(422);
    expect(expectErrorBody(r.json(), 422).message).toBe('Order needs to be in open status to checkout!');
  }
  expect(new Set(paid.map((r) => r.json().data.attributes.stripe_order_confirmation)).size).toBe(1);
  expect(paid[0]?.json().data.attributes.status).toBe('paid');
}

/**
 * A checkout that dies between the charge and the commit: tx1 as checkout runs it, the card
 * charged when `charged` (or not yet), and tx2 never run. Answers the pending payment.
 */
export async function crashedCheckout(t: TestApp, deps: Pick<ServerDeps, 'db' | 'config' | 'mailer' | 'payments'>, order: string, charged: boolean): Promise<Extract<Begun, { kind: 'charge' }>> {
  const [row] = await t.db.select({ id: labOrders.id }).from(labOrders).where(eq(labOrders.guid, order));
  const begun = await beginCheckout(deps, row?.id ?? 0, true);
  if (begun.kind !== 'charge') throw new Error(`expected a charge, got ${begun.kind}`);
  if (charged) {
    await deps.payments.charge({
      customerId: begun.customerId,
      providerCardId: begun.providerCardId,
      amountCents: begun.payment.amountCents,
      idempotencyKey: begun.payment.idempotencyKey,
      description: chargeDescription(begun.orderName),
      metadata: { lab_order: order, attempt: String(begun.payment.attempt) },
    });
  }
  return begun;
}
