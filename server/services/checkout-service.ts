import { and, eq } from 'drizzle-orm';
import { CardError } from '../adapters/payments/payments.ts';
import { crashPoint } from '../crash-point.ts';
import { labOrders, payments } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { formatMoney } from '../../src/domain/money.ts';
import type { Actor } from './auth-service.ts';
import { beginCheckout, chargeDescription, settlePayment, type Begun, type Outcome, type PaymentRow } from './checkout-payment.ts';
import { settleStalePayment, STALE_AFTER_MS } from './checkout-recovery.ts';
import { fullOrderAnswer } from './line-item-answer.ts';
import { visibleOrder } from './order-access.ts';
import { notOpenToCheckout } from './order-changes.ts';
import { beingPaid } from './order-lock.ts';
import { kickDeliveries } from './partner-events.ts';

/**
 * POST /lab_orders/{id}/checkout: the order charged exactly once (checkout-payment.ts has the two
 * transactions). A second checkout of the same order while one is in flight (a double click, two
 * tabs, a retry after a time-out) waits for it and answers what it came to.
 */

// How long a second checkout waits for the one in flight before answering 409: longer than a
// card charge usually takes at Stripe, shorter than a client's patience.
const WAIT_FOR_OTHER_MS = 8000;
// How often it looks whether the other one is done: cheap (one indexed row), quick enough to feel instant.
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cardError = (message: string) => new HttpError(402, 'CardError', message, { moreInfo: [message] });
export const PAYMENT_UNCONFIRMED = 'The card provider did not confirm the payment. We will check with it in a minute: please look at your orders before trying again.';
const totalChanged = (cents: number) =>
  new HttpError(409, 'TotalChanged', `The order's total is now ${formatMoney(cents)}. Please check it and place the order again.`);
const paymentUnconfirmed = () => new HttpError(503, 'PaymentUnconfirmed', PAYMENT_UNCONFIRMED);

/**
 * `requestKey`: the request's Idempotency-Key with its user, when it sent one. A request whose
 * answer was lost in a crash, retried under the same key once its claim is taken over, finds the
 * order paid (by the recovery of its own payment) and gets the paid order, as it would have.
 */
export async function checkout(deps: ServerDeps, actor: Actor | null, orderGuid: string, input: { save_card?: boolean | undefined }, requestKey: string | null = null) {
  const { order, photographer } = await visibleOrder(deps, actor, orderGuid);
  const answer = async () => {
    const [now] = await deps.db.select().from(labOrders).where(eq(labOrders.id, order.id));
    return fullOrderAnswer(deps, actor as Actor, now ?? order, photographer);
  };
  const deadline = Date.now() + WAIT_FOR_OTHER_MS;
  let sawOther = false;
  for (;;) {
    const begun: Begun = await beginCheckout(deps, order.id, input.save_card === true, requestKey);
    if (begun.kind === 'closed') {
      // The checkout we waited for paid it: the same answer it got.
      if (sawOther && begun.order.status === 'paid') return answer();
      if (requestKey && (await paidUnder(deps, order.id, requestKey))) return answer();
      throw notOpenToCheckout();
    }
    if (begun.kind === 'changed') throw totalChanged(begun.totalCents);
    if (begun.kind === 'paid') {
      if (begun.mailId) await deps.mailer.deliver(begun.mailId);
      await kickDeliveries(deps);
      return answer();
    }
    if (begun.kind === 'charge') {
      await charge(deps, begun);
      return answer();
    }
    // Another checkout of this order is in flight.
    sawOther = true;
    const settled = await waitFor(deps, begun.payment, deadline);
    if (!settled) throw beingPaid();
    if (settled.status === 'declined') throw cardError(settled.message ?? 'Your card was declined.');
    // succeeded: the next round finds the order paid; failed: the next round starts afresh.
  }
}

/** Whether this order was paid by an attempt that this same request (its Idempotency-Key) started. */
async function paidUnder(deps: ServerDeps, orderId: number, requestKey: string): Promise<boolean> {
  const [paid] = await deps.db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.labOrderId, orderId), eq(payments.requestKey, requestKey), eq(payments.status, 'succeeded')));
  return Boolean(paid);
}

/** Waits for a payment in flight to be settled; settles it from the provider's record if it was abandoned. */
async function waitFor(deps: ServerDeps, payment: PaymentRow, deadline: number): Promise<PaymentRow | null> {
  while (Date.now() < deadline) {
    const [now] = await deps.db.select().from(payments).where(eq(payments.id, payment.id));
    if (!now) return null;
    if (now.status !== 'pending') return now;
    // Abandoned (its request died): settle it from the provider's record; if the provider cannot
    // be asked now, keep waiting (housekeeping will settle it).
    const abandoned = Date.now() - now.createdAt.getTime() > STALE_AFTER_MS;
    const settled = abandoned ? await settleStalePayment(deps, now).catch(() => false) : false;
    if (!settled) await sleep(POLL_MS);
  }
  return null;
}

/** The charge, and tx2 with what came of it. A refusal is a 402 with the provider's words; the order stays open. */
async function charge(deps: ServerDeps, begun: Extract<Begun, { kind: 'charge' }>): Promise<void> {
  const { payment } = begun;
  let outcome: Outcome;
  try {
    const record = await deps.payments.charge({
      customerId: begun.customerId,
      providerCardId: begun.providerCardId,
      amountCents: payment.amountCents,
      idempotencyKey: payment.idempotencyKey,
      description: chargeDescription(begun.orderName),
      metadata: { lab_order: begun.orderGuid, attempt: String(payment.attempt) },
    });
    outcome = { charge: record };
  } catch (err) {
    if (err instanceof CardError) {
      await settlePayment(deps, payment.id, { declined: err.message });
      throw cardError(err.message);
    }
    // Not a refusal: the connection broke or the provider failed, and the charge may or may not
    // have been made. Its record decides. A record not found yet proves nothing (the provider may
    // still be finishing the request that timed out here), so the payment stays pending and
    // recovery decides once no request can still be charging (STALE_AFTER_MS): marking it failed
    // now would let the next PLACE ORDER charge a second time under a new key.
    deps.log?.warn({ err, payment: payment.id }, 'charge not confirmed; asking the provider');
    const found = await deps.payments.findCharge(payment.idempotencyKey, { customerId: begun.customerId }).catch(() => null);
    if (!found) throw paymentUnconfirmed();
    outcome = { charge: found };
  }
  // Charged, the order not marked paid yet: the window recovery and requestKey cover.
  crashPoint(deps.config.crashAt, 'payment-pending');
  const { settled, mailId } = await settlePayment(deps, payment.id, outcome);
  if (mailId) await deps.mailer.deliver(mailId);
  if (settled) await kickDeliveries(deps);
  if ('charge' in outcome && outcome.charge.status === 'declined') throw cardError(outcome.charge.message ?? 'Your card was declined.');
}
