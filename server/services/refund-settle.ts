import { and, eq, sql } from 'drizzle-orm';
import { formatMoney } from '../../src/domain/money.ts';
import type { OutgoingMail } from '../adapters/mail/mail-transport.ts';
import { RefundError, type RefundRecord } from '../adapters/payments/payments.ts';
import type { Tx } from '../db/client.ts';
import { creditLedger, labOrders, refunds, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { releaseDiscountUse } from './discount-service.ts';
import type { OrderRow } from './order-access.ts';
import { recordEvent } from './order-events.ts';
import { clawBackReferralCredit, clawbackText } from './referral-service.ts';
import { queuePartnerEvent } from './partner-events.ts';

/**
 * The two ends of a refund (order-money.ts): a refund is reserved (a `pending` refunds row, the
 * order's refund_cents raised) under the order's lock, the provider is called outside any
 * transaction, and then one of these records the outcome. The request that reserved it calls them
 * with the provider's answer; after a crash, refund-recovery.ts calls them with the provider's own
 * record. Each acts only on a row still pending, so the outcome is recorded exactly once.
 */

export type RefundRow = typeof refunds.$inferSelect;

// The reason in the credit ledger when a cancelled order's spent credit comes back.
const CREDIT_RETURNED = 'cancel_returned';

/** What the provider said: made (its record), refused (its words), or no answer (outcome unknown). */
export type ProviderOutcome = { made: RefundRecord } | { refused: string } | { unknown: string };

/** Asks the provider for the reserved refund; its idempotency key makes asking again safe. */
export async function askProvider(deps: Pick<ServerDeps, 'payments'>, order: Pick<OrderRow, 'guid' | 'paymentConfirmation'>, row: RefundRow): Promise<ProviderOutcome> {
  try {
    return { made: await deps.payments.refund({ chargeId: order.paymentConfirmation ?? '', amountCents: row.amountCents, idempotencyKey: row.idempotencyKey, metadata: { order: order.guid } }) };
  } catch (err) {
    // A refusal is final; anything else (a lost connection, a timeout, a 5xx) may have refunded.
    if (err instanceof RefundError) return { refused: err.message };
    return { unknown: err instanceof Error ? err.message : String(err) };
  }
}

const ownerEmail = async (tx: Tx, order: OrderRow) => (await tx.select({ email: users.email }).from(users).where(eq(users.guid, order.userGuid)))[0]?.email ?? '';

export const refundMail = (email: string, order: Pick<OrderRow, 'orderName' | 'userGuid'>, cents: number, note: string | null): OutgoingMail => ({
  to: email,
  statusStep: { userGuid: order.userGuid, step: 'refunded' },
  subject: `A refund of ${formatMoney(cents)} for your order ${order.orderName}`,
  text: [`The lab has refunded ${formatMoney(cents)} of your order ${order.orderName} to the card you paid with.`, ...(note ? ['', `Reason: ${note}`] : []), '', 'It shows on your statement within 5 to 10 business days.'].join('\n'),
});

/**
 * A cancellation's last step (the order already marked cancelled): the credit spent comes back,
 * the discount use is given back, the event and the photographer's mail.
 */
export async function finishCancel(tx: Tx, order: OrderRow, refundedCents: number, actorGuid: string | null): Promise<OutgoingMail> {
  if (order.creditCents > 0) {
    await tx.update(users).set({ creditAvailableCents: sql`${users.creditAvailableCents} + ${order.creditCents}` }).where(eq(users.guid, order.userGuid));
    await tx.insert(creditLedger).values({ userGuid: order.userGuid, amountCents: order.creditCents, reason: CREDIT_RETURNED, labOrderId: order.id }).onConflictDoNothing();
  }
  if (order.discountCodeId) await releaseDiscountUse(tx, order.discountCodeId);
  // A cancelled order earns its referrer nothing: the credit its payment gave is taken back.
  const clawback = await clawBackReferralCredit(tx, order.id);
  const detail = [`refunded ${formatMoney(refundedCents)}, credit returned ${formatMoney(order.creditCents)}`, ...(clawback ? [clawbackText(clawback, formatMoney)] : [])].join('; ');
  await recordEvent(tx, order.id, actorGuid, 'cancel', { from: 'paid', to: 'cancelled', detail });
  await queuePartnerEvent(tx, order, 'order.cancelled');
  return {
    to: await ownerEmail(tx, order),
    statusStep: { userGuid: order.userGuid, step: 'cancelled' },
    subject: `Your order ${order.orderName} is cancelled`,
    text: [`Your order ${order.orderName} is cancelled.`, '', `Refunded to your card: ${formatMoney(refundedCents)}`, `Credit returned to your account: ${formatMoney(order.creditCents)}`].join('\n'),
  };
}

/**
 * The provider made the refund: the row settled with its id, then what its kind completes (the
 * refund's event and mail; a cancellation's credit, discount, event and mail). Null when the row
 * was no longer pending (settled by someone else first).
 */
export async function settleMade(tx: Tx, rowId: string, made: RefundRecord): Promise<{ order: OrderRow; mail: OutgoingMail } | null> {
  const [row] = await tx
    .update(refunds)
    .set({ status: 'succeeded', providerRefundId: made.id })
    .where(and(eq(refunds.id, rowId), eq(refunds.status, 'pending')))
    .returning();
  if (!row) return null;
  const [order] = await tx.select().from(labOrders).where(eq(labOrders.id, row.labOrderId));
  if (!order) return null;
  if (row.kind === 'cancel') return { order, mail: await finishCancel(tx, order, row.amountCents, row.actorGuid) };
  await recordEvent(tx, order.id, row.actorGuid, 'refund', { to: (row.amountCents / 100).toFixed(2), detail: row.note });
  await queuePartnerEvent(tx, order, 'order.refunded', { cents: row.amountCents, note: row.note });
  await clawBackIfRefundedInFull(tx, order, row.actorGuid);
  return { order, mail: refundMail(await ownerEmail(tx, order), order, row.amountCents, row.note) };
}

/**
 * A refund of the whole charge makes the order earn its referrer nothing, as a cancellation does:
 * the referral credit is taken back. Counted over the refunds the provider made (settled rows), not
 * reservations still pending, so a refund the provider then refuses never triggers it. A partial
 * refund (a scratched print) leaves the sale, and the referral, standing.
 */
async function clawBackIfRefundedInFull(tx: Tx, order: OrderRow, actorGuid: string | null) {
  if (order.totalCents <= 0) return;
  const [settled] = await tx
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.labOrderId, order.id), eq(refunds.status, 'succeeded')));
  if (Number(settled?.cents ?? 0) < order.totalCents) return;
  const clawback = await clawBackReferralCredit(tx, order.id);
  if (clawback) await recordEvent(tx, order.id, actorGuid, 'referral_clawback', { detail: clawbackText(clawback, formatMoney) });
}

/**
 * The provider did not make it: the reservation is given back (and a cancellation undone: the
 * order is paid again, as it was). False when the row was no longer pending.
 */
export async function giveBack(tx: Tx, rowId: string): Promise<boolean> {
  const [row] = await tx
    .delete(refunds)
    .where(and(eq(refunds.id, rowId), eq(refunds.status, 'pending')))
    .returning();
  if (!row) return false;
  await tx.update(labOrders).set({ refundCents: sql`${labOrders.refundCents} - ${row.amountCents}` }).where(eq(labOrders.id, row.labOrderId));
  if (row.kind === 'cancel') await tx.update(labOrders).set({ status: 'paid', cancelledAt: null }).where(eq(labOrders.id, row.labOrderId));
  return true;
}
