import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailTransportFor } from '../../server/adapters/mail/mail-transport.ts';
import { sandboxPayments } from '../../server/adapters/payments/sandbox-payments.ts';
import { creditLedger, discountCodes, idempotencyKeys, labOrders, payments, sandboxCharges, users } from '../../server/db/schema.ts';
import { housekeepingSteps, startJobWorkers } from '../../server/job-workers.ts';
import type { Begun } from '../../server/services/checkout-payment.ts';
import { recoverPendingPayments } from '../../server/services/checkout-recovery.ts';
import { createMailer } from '../../server/services/mail-service.ts';
import type { ServerDeps } from '../../server/deps.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { change, changed, crashedCheckout, discountCode, payOrder, readyOrder } from './checkout-helpers.ts';
import { callApi } from './contract-call.ts';
import { products, type Products } from './line-items-helpers.ts';

/**
 * A crash between the charge and the commit (issue 12): the payment is left pending, and is
 * settled from the provider's record: paid once if the card was charged, else open and uncharged.
 */
let t: TestApp;
let p: Products;
let deps: Pick<ServerDeps, 'db' | 'config' | 'mailer' | 'payments'>;
const printed: string[] = [];
beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'recorded' });
  p = await products(t);
  // The app's own parts, as a second process (the one restarted after the crash) has them.
  deps = { db: t.db, config: t.config, mailer: createMailer(t.db, mailTransportFor(t.config, (line) => printed.push(line)), t.config.mailFrom), payments: sandboxPayments(t.db) };
});
afterAll(() => t.close());

const pay = (token: string, order: string) => payOrder(t, token, order);
const orderRow = async (guid: string) => (await t.db.select().from(labOrders).where(eq(labOrders.guid, guid)))[0];
const chargesOf = async (guid: string) => (await t.db.select().from(sandboxCharges)).filter((c) => c.metadata.lab_order === guid);
const creditOf = async (userGuid: string) => (await t.db.select().from(users).where(eq(users.guid, userGuid)))[0]?.creditAvailableCents;

const crash = (order: string, charged: boolean) => crashedCheckout(t, deps, order, charged);
/** As if the crash was more than a minute ago. */
const age = (begun: Begun & { kind: 'charge' }) => t.db.update(payments).set({ createdAt: new Date(Date.now() - 2 * 60_000) }).where(eq(payments.id, begun.payment.id));

describe('recovery of pending payments', () => {
  it('charged before the crash: the order ends paid once, with the receipt, credit and discount use spent once', async () => {
    const o = await readyOrder(t, p, { creditCents: 250 });
    const code = await discountCode(t, { percent: 5, usageLimit: 10 });
    await changed(t, o.token, o.order, { type: 'discount_code', value: code });
    await changed(t, o.token, o.order, { type: 'credit', value: 2.5 });
    const begun = await crash(o.order, true);
    // Recent: still someone's checkout in flight, not recovered yet.
    expect(await recoverPendingPayments(deps)).toBe(0);
    await age(begun);
    expect(await recoverPendingPayments(deps)).toBe(1);
    expect(await recoverPendingPayments(deps)).toBe(0);
    const row = await orderRow(o.order);
    const [charge] = await chargesOf(o.order);
    expect(row).toMatchObject({ status: 'paid', paymentConfirmation: charge?.id });
    expect(await chargesOf(o.order)).toHaveLength(1);
    expect(await creditOf(o.user.guid)).toBe(0);
    expect((await t.db.select().from(discountCodes).where(eq(discountCodes.code, code)))[0]?.uses).toBe(1);
    expect(printed.filter((m) => m.startsWith(`Mail to ${o.user.email}: Receipt`))).toHaveLength(1);
    // A checkout after it: the order is paid.
    expect(expectErrorBody((await pay(o.token, o.order)).json(), 422).message).toBe('Order needs to be in open status to checkout!');
  });

  it('not charged before the crash: the payment fails, credit and discount use come back, a new checkout pays once', async () => {
    const o = await readyOrder(t, p, { creditCents: 100 });
    const code = await discountCode(t, { amountCents: 100, usageLimit: 1 });
    await changed(t, o.token, o.order, { type: 'discount_code', value: code });
    await changed(t, o.token, o.order, { type: 'credit', value: 1 });
    const begun = await crash(o.order, false);
    expect(await creditOf(o.user.guid)).toBe(0);
    await age(begun);
    expect(await recoverPendingPayments(deps)).toBe(1);
    expect((await t.db.select().from(payments).where(eq(payments.id, begun.payment.id)))[0]?.status).toBe('failed');
    expect((await orderRow(o.order))?.status).toBe('open');
    expect(await creditOf(o.user.guid)).toBe(100);
    expect((await t.db.select().from(discountCodes).where(eq(discountCodes.code, code)))[0]?.uses).toBe(0);
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.labOrderId, begun.payment.labOrderId))).toEqual([]);
    expect(await chargesOf(o.order)).toHaveLength(0);
    expect((await pay(o.token, o.order)).status).toBe(200);
    expect(await chargesOf(o.order)).toHaveLength(1);
    expect(await creditOf(o.user.guid)).toBe(0);
  });

  it('a checkout that finds an abandoned payment settles it and answers the paid order', async () => {
    const o = await readyOrder(t, p);
    await age(await crash(o.order, true));
    const res = await pay(o.token, o.order);
    expect(res.status).toBe(200);
    expect(res.json().data.attributes.status).toBe('paid');
    expect(await chargesOf(o.order)).toHaveLength(1);
  });

  it('the checkout request whose answer a crash lost, sent again under its key, gets the order its payment paid', async () => {
    const o = await readyOrder(t, p);
    const key = `checkout-${o.order}`;
    const checkoutUnder = () => callApi(t.app, 'POST /lab_orders/:guid/checkout', { params: { guid: o.order }, body: {} }, { token: o.token, headers: { 'idempotency-key': key } });
    const first = await checkoutUnder();
    expect(first.status).toBe(200);
    // What a kill -9 after the charge leaves once recovery has paid the order: the key's claim
    // with no answer stored, older than a minute, so the retry takes it over and runs again.
    await t.db
      .update(idempotencyKeys)
      .set({ statusCode: null, response: null, createdAt: new Date(Date.now() - 2 * 60_000) })
      .where(eq(idempotencyKeys.key, key));
    const retried = await checkoutUnder();
    expect(retried.status).toBe(200);
    expect(retried.json().data.attributes).toMatchObject({ status: 'paid', stripe_order_confirmation: first.json().data.attributes.stripe_order_confirmation });
    expect(await chargesOf(o.order)).toHaveLength(1);
    // Any other request (another key) is told the order is no longer open, as before.
    expect(expectErrorBody((await pay(o.token, o.order)).json(), 422).message).toBe('Order needs to be in open status to checkout!');
  });

  it('housekeeping settles pending payments too', async () => {
    const o = await readyOrder(t, p);
    await age(await crash(o.order, true));
    await housekeepingSteps({ ...(deps as ServerDeps), appSecret: 'x' })['pending payments']?.();
    expect((await orderRow(o.order))?.status).toBe('paid');
  });

  it('a restarted server settles them as it starts its workers', async () => {
    const o = await readyOrder(t, p);
    await age(await crash(o.order, true));
    // The workers of a fresh process; its queues and schedule are not the point here.
    const jobs = { send: async () => {}, work: async () => {}, every: async () => {}, stop: async () => {} };
    await startJobWorkers({ ...(deps as ServerDeps), jobs } as unknown as ServerDeps);
    expect((await orderRow(o.order))?.status).toBe('paid');
    expect(await chargesOf(o.order)).toHaveLength(1);
  });

  it('while a payment is in flight, the cart and the choices cannot change, and a checkout waits then answers 409', { timeout: 30_000 }, async () => {
    const o = await readyOrder(t, p);
    await crash(o.order, false);
    const patch = await change(t, o.token, o.order, { type: 'local_pickup', value: true });
    expect(patch.status).toBe(409);
    expect(expectErrorBody(patch.json(), 409).message).toBe('This order is already being paid. Please wait a moment.');
    const res = await pay(o.token, o.order);
    expect(res.status).toBe(409);
    expect(expectErrorBody(res.json(), 409).message).toBe('This order is already being paid. Please wait a moment.');
    expect(await chargesOf(o.order)).toHaveLength(0);
  });

  it("an admin's status change waits for the payment in flight (its settling would overwrite it)", async () => {
    const o = await readyOrder(t, p);
    const { user: admin, password } = await createUser(t.db, { isAdmin: true });
    const adminToken = await signIn(t.app, admin.email, password);
    const begun = await crash(o.order, false);
    const cancel = await change(t, adminToken, o.order, { type: 'status', value: 'cancelled' });
    expect(cancel.status).toBe(409);
    expect((await orderRow(o.order))?.status).toBe('open');
    await age(begun);
    expect(await recoverPendingPayments(deps)).toBe(1);
    expect((await change(t, adminToken, o.order, { type: 'status', value: 'cancelled' })).status).toBe(200);
  });

  it('a TOTAL that moved since the photographer saw it is not charged: 409 with the new total, then a checkout of it pays', async () => {
    const o = await readyOrder(t, p);
    const before = await orderRow(o.order);
    // The stored TOTAL is what the screens showed; as if the figures moved under it since.
    await t.db.update(labOrders).set({ totalCents: (before?.totalCents ?? 0) + 500 }).where(eq(labOrders.guid, o.order));
    const res = await pay(o.token, o.order);
    expect(res.status).toBe(409);
    const body = expectErrorBody(res.json(), 409);
    expect(body.class_name).toBe('TotalChanged');
    expect(body.message).toContain(`$${((before?.totalCents ?? 0) / 100).toFixed(2)}`);
    expect(await chargesOf(o.order)).toHaveLength(0);
    expect((await orderRow(o.order))?.totalCents).toBe(before?.totalCents);
    expect((await pay(o.token, o.order)).status).toBe(200);
    expect(await chargesOf(o.order)).toHaveLength(1);
  });
});
