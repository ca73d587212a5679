import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { labOrders, payments, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { settlePayment, type PaymentRow } from './checkout-payment.ts';

/**
 * A payment left `pending` (the process died between the charge and tx2, or the provider's answer
 * was lost) is settled from the provider's own record, found by the payment's idempotency key:
 * a charge found → the order is paid, once; none → the payment failed and its reservations are
 * given back, the order stays open and uncharged. Run at start and by housekeeping every minute.
 */

// A checkout normally settles its payment within seconds; the Stripe client gives up well within
// a minute (stripe-payments.ts). Older than this, no request is still working on it.
export const STALE_AFTER_MS = 60_000;
// Payments settled per sweep: a crash leaves a handful; the next minute takes the rest.
const SWEEP_LIMIT = 50;

export async function settleStalePayment(deps: Pick<ServerDeps, 'db' | 'config' | 'mailer' | 'payments'>, payment: PaymentRow): Promise<boolean> {
  const [owner] = await deps.db
    .select({ customerId: users.stripeCustomerId })
    .from(labOrders)
    .innerJoin(users, eq(users.guid, labOrders.userGuid))
    .where(eq(labOrders.id, payment.labOrderId));
  const found = await deps.payments.findCharge(payment.idempotencyKey, { customerId: owner?.customerId ?? null });
  const { settled, mailId } = await settlePayment(deps, payment.id, found ? { charge: found } : { failed: 'The checkout was interrupted before the card was charged.' });
  if (mailId) await deps.mailer.deliver(mailId);
  return settled;
}

/** Settles every stale pending payment; answers how many it settled. */
export async function recoverPendingPayments(deps: Pick<ServerDeps, 'db' | 'config' | 'mailer' | 'payments' | 'log'>): Promise<number> {
  const stale = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lt(payments.createdAt, sql`now() - make_interval(secs => ${STALE_AFTER_MS / 1000})`)))
    .orderBy(asc(payments.createdAt))
    .limit(SWEEP_LIMIT);
  let settled = 0;
  for (const payment of stale) {
    try {
      if (await settleStalePayment(deps, payment)) settled += 1;
    } catch (err) {
      // The provider could not be asked: the payment stays pending for the next sweep.
      deps.log?.warn({ err, payment: payment.id }, 'pending payment not settled yet');
    }
  }
  if (settled) deps.log?.info({ settled }, 'pending payments settled from the provider');
  return settled;
}
