import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stripePayments } from '../../server/adapters/payments/stripe-payments.ts';
import { labOrders, payments, users } from '../../server/db/schema.ts';
import { recoverPendingPayments } from '../../server/services/checkout-recovery.ts';
import { createMailer } from '../../server/services/mail-service.ts';
import { mailTransportFor } from '../../server/adapters/mail/mail-transport.ts';
import { SHIPPING_CENTS } from '../../src/domain/pricing.ts';
import { createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { addCard, change, checkoutOrder, crashedCheckout, expectOnePayment, legacySourceCard, payOrder, readyOrder } from './checkout-helpers.ts';
import { callApi } from './contract-call.ts';
import { products, type Products } from './line-items-helpers.ts';
import { callAs } from './photo-helpers.ts';
import { startStripeStub, type StripeStub } from './stripe-stub.ts';

/** Checkout through Stripe (its API stubbed locally): one charge per order, counted at Stripe. */
let t: TestApp;
let p: Products;
let stripe: StripeStub;
beforeAll(async () => {
  stripe = await startStripeStub();
  t = await createTestApp({ STRIPE_SECRET_KEY: 'sk_test_lab', STRIPE_PUBLISHABLE_KEY: 'pk_test_lab', STRIPE_API_URL: stripe.url }, { jobs: 'recorded' });
  p = await products(t);
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const pay = (token: string, order: string) => payOrder(t, token, order);
const chargesOf = (order: string) => stripe.charges.filter((c) => c.metadata.lab_order === order);
const chargeCalls = (order: string) => stripe.seen.filter((s) => s.method === 'POST' && s.path === '/v1/payment_intents' && s.body.get('metadata[lab_order]') === order);
const intentsOf = (order: string) => stripe.paymentIntents.filter((i) => i.metadata.lab_order === order);

describe('checkout through Stripe', () => {
  it("charges the customer's saved card the server's total through a PaymentIntent, with the payment's idempotency key", async () => {
    const o = await readyOrder(t, p);
    const res = await pay(o.token, o.order);
    expect(res.status).toBe(200);
    const [charge] = chargesOf(o.order);
    expect(chargesOf(o.order)).toHaveLength(1);
    expect(charge).toMatchObject({ amount: o.subtotalCents + SHIPPING_CENTS, currency: 'usd', status: 'succeeded' });
    expect(charge?.customer).toMatch(/^cus_stub/);
    expect(charge?.payment_method).toMatch(/^pm_ok_/);
    expect(intentsOf(o.order)).toMatchObject([{ status: 'succeeded', latest_charge: charge?.id, payment_method: charge?.payment_method }]);
    // The order keeps the charge's id, as orders paid before PaymentIntents do: refunds take it.
    expect(res.json().data.attributes).toMatchObject({ status: 'paid', stripe_order_confirmation: charge?.id });
    const [call] = chargeCalls(o.order);
    expect(call?.idempotencyKey).toBe(`lab-order-${o.order}-attempt-1`);
    expect(Object.fromEntries(call?.body ?? [])).toMatchObject({ off_session: 'true', confirm: 'true', 'metadata[idempotency_key]': call?.idempotencyKey });
    expect(stripe.seen.filter((s) => s.method === 'POST' && s.path === '/v1/charges')).toEqual([]);
  });

  it('a card saved before PaymentIntents (a customer source, card_…) is still charged', async () => {
    const o = await readyOrder(t, p);
    const source = await legacySourceCard(t, stripe.url, o.user.guid, o.card);
    expect((await pay(o.token, o.order)).status).toBe(200);
    expect(intentsOf(o.order)).toMatchObject([{ status: 'succeeded', payment_method: source, customer: expect.stringMatching(/^cus_stub/) }]);
    expect(chargesOf(o.order)).toMatchObject([{ status: 'succeeded', source }]);
  });

  it('five checkouts of one order at once: one charge at Stripe, one paid order', async () => {
    const o = await readyOrder(t, p);
    // The first charge is held at Stripe until the other four have begun their checkouts (their
    // transactions ended: each found the payment in flight, and waits for it).
    let release = () => {};
    stripe.holdCharges = new Promise<void>((resolve) => (release = resolve));
    const begun = vi.spyOn(t.db, 'transaction');
    const paying = Promise.all(Array.from({ length: 5 }, () => pay(o.token, o.order)));
    await vi.waitFor(() => expect(stripe.chargesHeld).toBe(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(begun.mock.settledResults.filter((r) => r.type === 'fulfilled').length).toBeGreaterThanOrEqual(5), { timeout: 10_000 });
    release();
    stripe.holdCharges = null;
    begun.mockRestore();
    const answers = await paying;
    expectOnePayment(answers);
    // The four that waited got the paid order, as the first did.
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    expect(chargesOf(o.order)).toHaveLength(1);
    expect(chargeCalls(o.order)).toHaveLength(1);
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(row?.status).toBe('paid');
  });

  it('a card Stripe declines as it is set up is never saved nor selected for the order', async () => {
    const o = await readyOrder(t, p);
    const res = await callAs(t.app, 'POST /accounts/create_card', { body: { token_id: 'tok_chargeDeclined', lab_order_id: o.order } }, { token: o.token });
    expect(expectErrorBody(res.json(), 402).message).toBe('Your card was declined.');
    const profile = await callApi(t.app, 'GET /profile', {}, { token: o.token });
    expect(profile.json().cards.data.map((c) => c.masked_card)).not.toContain('VISA •••• 0002');
    expect(profile.json().default_card).toBe(o.card);
    expect((await checkoutOrder(t, o.token, o.order)).selected_card_to_use).toBe(o.card);
  });

  it("a declined card shows Stripe's words; a retry with another card is a new charge, paid once", async () => {
    const o = await readyOrder(t, p, { tokenId: 'tok_chargeCustomerFail' });
    const declined = await pay(o.token, o.order);
    expect(declined.status).toBe(402);
    expect(expectErrorBody(declined.json(), 402).message).toBe('Your card was declined.');
    // Nothing charged: the order is still open, with no charge of its own.
    const [open] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(open).toMatchObject({ status: 'open', paymentConfirmation: null });
    await addCard(t, o.token, 'tok_visa', o.order);
    expect((await pay(o.token, o.order)).status).toBe(200);
    expect(chargesOf(o.order).map((c) => c.status)).toEqual(['failed', 'succeeded']);
    expect(intentsOf(o.order).map((i) => [i.status, i.amount_received])).toEqual([
      ['requires_payment_method', 0],
      ['succeeded', o.subtotalCents + SHIPPING_CENTS],
    ]);
    expect(new Set(chargeCalls(o.order).map((c) => c.idempotencyKey)).size).toBe(2);
  });

  it('a lost answer is retried with the same key: Stripe charges once', async () => {
    const o = await readyOrder(t, p);
    stripe.dropAnswers = 1;
    const res = await pay(o.token, o.order);
    expect(res.status).toBe(200);
    expect(chargeCalls(o.order).length).toBeGreaterThan(1);
    expect(new Set(chargeCalls(o.order).map((c) => c.idempotencyKey)).size).toBe(1);
    expect(chargesOf(o.order)).toHaveLength(1);
  });

  /** What recovery runs with, as the server's housekeeping would, its printed mails kept. */
  const recoveryDeps = (printed: string[] = []) => ({
    db: t.db,
    config: t.config,
    mailer: createMailer(t.db, mailTransportFor(t.config, (line) => printed.push(line)), t.config.mailFrom),
    payments: stripePayments({ secretKey: 'sk_test_lab', publishableKey: 'pk_test_lab', apiUrl: stripe.url }),
  });
  /** A PaymentIntent and its charge that Stripe made after the lab stopped waiting for it. */
  function lateCharge(payment: typeof payments.$inferSelect | undefined, customer: string | null, order: string) {
    const metadata = { lab_order: order, attempt: '1', idempotency_key: payment?.idempotencyKey ?? '' };
    const made = { amount: payment?.amountCents ?? 0, currency: 'usd', customer, description: null, metadata, created: Math.floor(Date.now() / 1000) };
    stripe.charges.push({ ...made, id: 'ch_stub_late', object: 'charge', source: null, payment_method: 'pm_ok_late', payment_intent: 'pi_stub_late', status: 'succeeded', failure_message: null });
    stripe.paymentIntents.push({ ...made, id: 'pi_stub_late', object: 'payment_intent', amount_received: made.amount, payment_method: 'pm_ok_late', status: 'succeeded', last_payment_error: null, latest_charge: 'ch_stub_late' });
  }
  /** A minute passes: no request can still be charging the order's pending payment. */
  const ageThePayment = (orderGuid: string) =>
    t.db.update(payments).set({ createdAt: new Date(Date.now() - 2 * 60_000) }).where(eq(payments.idempotencyKey, `lab-order-${orderGuid}-attempt-1`));

  it('Stripe failing without a record leaves the payment pending (503), and a charge Stripe makes late is settled as paid, once', async () => {
    const o = await readyOrder(t, p);
    // Every try of the Stripe client fails before Stripe records anything (it retries twice).
    stripe.failCharges = 3;
    const res = await pay(o.token, o.order);
    expect(res.status).toBe(503);
    expect(expectErrorBody(res.json(), 503).class_name).toBe('PaymentUnconfirmed');
    const [pending] = await t.db.select().from(payments).where(eq(payments.idempotencyKey, `lab-order-${o.order}-attempt-1`));
    expect(pending?.status).toBe('pending');
    // A second PLACE ORDER now starts no new charge: the order is still being paid.
    expect((await change(t, o.token, o.order, { type: 'local_pickup', value: true })).status).toBe(409);
    // Stripe finishes the request that timed out after all: the PaymentIntent exists under the payment's key.
    const [owner] = await t.db.select({ customer: users.stripeCustomerId }).from(users).innerJoin(labOrders, eq(labOrders.userGuid, users.guid)).where(eq(labOrders.guid, o.order));
    lateCharge(pending, owner?.customer ?? null, o.order);
    await ageThePayment(o.order);
    const printed: string[] = [];
    expect(await recoverPendingPayments(recoveryDeps(printed))).toBe(1);
    const [after] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(after).toMatchObject({ status: 'paid', paymentConfirmation: 'ch_stub_late' });
    expect(stripe.paymentIntents.filter((i) => i.metadata.lab_order === o.order)).toHaveLength(1);
    expect(chargesOf(o.order)).toHaveLength(1);
    expect(printed.filter((m) => m.includes('Receipt'))).toHaveLength(1);
  });

  it('Stripe failing without a record, and never charging: recovery marks it failed and the next PLACE ORDER charges once', async () => {
    const o = await readyOrder(t, p);
    stripe.failCharges = 3;
    expect((await pay(o.token, o.order)).status).toBe(503);
    await ageThePayment(o.order);
    expect(await recoverPendingPayments(recoveryDeps())).toBe(1);
    expect((await pay(o.token, o.order)).status).toBe(200);
    expect(chargesOf(o.order)).toHaveLength(1);
    expect((await t.db.select().from(payments).where(eq(payments.labOrderId, (await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order)))[0]?.id ?? 0))).map((r) => r.status).sort()).toEqual(['failed', 'succeeded']);
  });

  it('a crash between the charge and the commit is settled from the charge Stripe kept', async () => {
    const o = await readyOrder(t, p);
    const printed: string[] = [];
    const deps = recoveryDeps(printed);
    const begun = await crashedCheckout(t, deps, o.order, true);
    // The process dies here: tx2 never runs. A minute later, recovery.
    await t.db.update(payments).set({ createdAt: new Date(Date.now() - 2 * 60_000) }).where(eq(payments.id, begun.payment.id));
    expect(await recoverPendingPayments(deps)).toBe(1);
    expect(await recoverPendingPayments(deps)).toBe(0);
    const [after] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(after).toMatchObject({ status: 'paid', paymentConfirmation: chargesOf(o.order)[0]?.id });
    expect(chargesOf(o.order)).toHaveLength(1);
    expect(printed.filter((m) => m.includes('Receipt'))).toHaveLength(1);
    // Found by Stripe's search too, when the customer is not known.
    expect(await deps.payments.findCharge(begun.payment.idempotencyKey)).toMatchObject({ id: after?.paymentConfirmation, status: 'succeeded' });
  });

  it('a crash after a declined charge: recovery finds the declined PaymentIntent, the order stays open and uncharged', async () => {
    const o = await readyOrder(t, p, { tokenId: 'tok_chargeCustomerFail' });
    const deps = recoveryDeps();
    const { payment, customerId, providerCardId } = await crashedCheckout(t, deps, o.order, false);
    const request = { customerId, providerCardId, amountCents: payment.amountCents, idempotencyKey: payment.idempotencyKey, description: 'x', metadata: { lab_order: o.order } };
    await expect(deps.payments.charge(request)).rejects.toThrow('Your card was declined.');
    await t.db.update(payments).set({ createdAt: new Date(Date.now() - 2 * 60_000) }).where(eq(payments.id, payment.id));
    expect(await recoverPendingPayments(deps)).toBe(1);
    const [settled] = await t.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(settled).toMatchObject({ status: 'declined', message: 'Your card was declined.' });
    const [after] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(after).toMatchObject({ status: 'open', paymentConfirmation: null });
    expect(intentsOf(o.order).map((i) => i.status)).toEqual(['requires_payment_method']);
  });

  it('a payment left pending before PaymentIntents is settled from the legacy charge Stripe kept', async () => {
    const o = await readyOrder(t, p);
    const begun = await crashedCheckout(t, recoveryDeps(), o.order, false);
    // Charged through the Charges API by the lab before this change; then the process died.
    const { payment, customerId } = begun;
    stripe.charges.push({
      id: 'ch_stub_legacy',
      object: 'charge',
      amount: payment.amountCents,
      currency: 'usd',
      customer: customerId,
      source: 'card_ok_legacy',
      payment_method: null,
      payment_intent: null,
      status: 'succeeded',
      failure_message: null,
      description: null,
      metadata: { lab_order: o.order, attempt: String(payment.attempt), idempotency_key: payment.idempotencyKey },
      created: Math.floor(Date.now() / 1000),
    });
    await t.db.update(payments).set({ createdAt: new Date(Date.now() - 2 * 60_000) }).where(eq(payments.id, payment.id));
    expect(await recoverPendingPayments(recoveryDeps())).toBe(1);
    const [after] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(after).toMatchObject({ status: 'paid', paymentConfirmation: 'ch_stub_legacy' });
    expect(await recoveryDeps().payments.findCharge(payment.idempotencyKey)).toMatchObject({ id: 'ch_stub_legacy', status: 'succeeded' });
  });
});
