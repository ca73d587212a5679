import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { formatMoney } from '../../src/domain/money.ts';
import { labOrders, refunds } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { STALE_AFTER_MS } from './checkout-recovery.ts';
import { recordEvent } from './order-events.ts';
import { askProvider, giveBack, settleMade, type RefundRow } from './refund-settle.ts';

/**
 * A refund left `pending` (the process died between the provider's call and its record, or the
 * provider's answer was lost) is settled from the provider's own record, found by the refund's
 * idempotency key, as checkout-recovery.ts does for payments. Run at start and by housekeeping
 * every minute.
 * - Found: it was made. It is recorded once, with its event and the photographer's mail (for a
 *   cancellation: the credit and discount given back too).
 * - Not found, an admin's refund: nothing was refunded; the reservation is given back and the
 *   order's history says so (the admin refunds again if it is still wanted).
 * - Not found, a photographer's cancellation: the order is already cancelled and the photographer
 *   was told so, so the refund is asked for again with the same key (the provider makes it once);
 *   only if the provider refuses is the cancellation undone (the order paid again).
 */

// Refunds settled per sweep: a crash leaves a handful; the next minute takes the rest.
const SWEEP_LIMIT = 50;

type Deps = Pick<ServerDeps, 'db' | 'mailer' | 'payments' | 'log'>;

/** Settles one pending refund; answers whether it is settled (false: ask again next sweep). */
export async function settleStaleRefund(deps: Deps, row: RefundRow): Promise<boolean> {
  const [order] = await deps.db.select().from(labOrders).where(eq(labOrders.id, row.labOrderId));
  if (!order) return false;
  const chargeId = order.paymentConfirmation ?? '';
  const found = await deps.payments.findRefund(row.idempotencyKey, { chargeId });
  const outcome = found ? { made: found } : row.kind === 'cancel' ? await askProvider(deps, order, row) : null;
  // The provider could not be asked: the row stays pending for the next sweep.
  if (outcome && 'unknown' in outcome) return false;
  const mailId = await deps.db.transaction(async (tx) => {
    if (outcome && 'made' in outcome) {
      const done = await settleMade(tx, row.id, outcome.made);
      return done ? deps.mailer.queue(tx, done.mail) : null;
    }
    if (!(await giveBack(tx, row.id))) return null;
    const why = outcome && 'refused' in outcome ? `the payment provider refused it (${outcome.refused}): the order is paid again` : 'interrupted before the payment provider made it: nothing was refunded';
    await recordEvent(tx, order.id, null, row.kind === 'cancel' ? 'cancel' : 'refund', { detail: `${formatMoney(row.amountCents)} ${why}` });
    return null;
  });
  if (mailId) await deps.mailer.deliver(mailId);
  return true;
}

/** Settles every stale pending refund; answers how many it settled. */
export async function recoverPendingRefunds(deps: Deps): Promise<number> {
  const stale = await deps.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.status, 'pending'), lt(refunds.createdAt, sql`now() - make_interval(secs => ${STALE_AFTER_MS / 1000})`)))
    .orderBy(asc(refunds.createdAt))
    .limit(SWEEP_LIMIT);
  let settled = 0;
  for (const row of stale) {
    try {
      if (await settleStaleRefund(deps, row)) settled += 1;
    } catch (err) {
      deps.log?.warn({ err, refund: row.id }, 'pending refund not settled yet');
    }
  }
  if (settled) deps.log?.info({ settled }, 'pending refunds settled from the provider');
  return settled;
}
