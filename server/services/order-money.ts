import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { formatMoney, toCents } from '../../src/domain/money.ts';
import type { Tx } from '../db/client.ts';
import { labOrders, refunds } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { fullOrderAnswer } from './line-item-answer.ts';
import { ownOrder, visibleOrder, type OrderRow } from './order-access.ts';
import { requireAdmin } from './admin-guard.ts';
import { askProvider, finishCancel, giveBack, settleMade } from './refund-settle.ts';
import { kickDeliveries } from './partner-events.ts';

/**
 * Refunds (admin) and cancellation (the photographer, within the window), through the payment
 * adapter (docs/lab-rules.md §2). As checkout does, the provider is called outside any
 * transaction: the refund is first reserved (a `pending` refunds row, the order's refund_cents
 * raised) under the order's lock, so two refunds at once can never give back more than was paid;
 * then the provider refunds once per idempotency key (one per refund); then the row is settled, or
 * the reservation given back if the provider refused (refund-settle.ts). When the provider does not
 * answer, or the process dies before the record, the row stays pending and refund-recovery.ts
 * settles it from the provider's own record.
 */

export const REFUND_RULE = 'Enter the refund as an amount in dollars with at most 2 decimals, more than 0.';
export const NOTHING_CHARGED = 'This order was not paid by card: there is no charge to refund.';
export const REFUND_FAILED = 'The payment provider did not make the refund; nothing was refunded. Please try again.';
export const REFUND_PENDING = 'The payment provider did not answer. The refund is pending: the lab checks it with the provider within a few minutes and records it, or gives it back if it was not made.';
export const CANCEL_PENDING = 'Your order is cancelled. The payment provider did not answer yet: the refund is confirmed within a few minutes and mailed to you.';
export const tooMuch = (leftCents: number) => `The refund is more than what is left to refund (${formatMoney(leftCents)}).`;
export const cancelClosed = (minutes: number) => `This order can no longer be cancelled: the lab has started it or the ${minutes} minutes have passed.`;
// The refund note the photographer's own cancellation records.
const CANCEL_NOTE = 'Cancelled by the photographer';

function refundCents(value: string | number): number {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) throw validationError(REFUND_RULE);
  const cents = toCents(text);
  if (cents <= 0) throw validationError(REFUND_RULE);
  return cents;
}

/**
 * Until when the photographer may cancel a paid order (paid_at + CANCEL_WINDOW_MINUTES), or null
 * for an order never paid. The status decides too: only while still `paid` (the lab has not
 * started it). The detail shows it; cancelOrder applies it.
 */
export const cancelUntil = (order: Pick<OrderRow, 'paidAt'>, minutes: number): Date | null => (order.paidAt ? new Date(order.paidAt.getTime() + minutes * 60_000) : null);

/** What the card paid and has not been refunded yet. */
const leftToRefund = (order: OrderRow) => order.totalCents - order.refundCents;

async function reserve(tx: Tx, order: OrderRow, actor: Actor, cents: number, note: string | null, kind: 'refund' | 'cancel', key: string) {
  const [row] = await tx.insert(refunds).values({ labOrderId: order.id, amountCents: cents, note, actorGuid: actor.user.guid, idempotencyKey: key, status: 'pending', kind }).returning();
  await tx.update(labOrders).set({ refundCents: sql`${labOrders.refundCents} + ${cents}` }).where(eq(labOrders.id, order.id));
  if (!row) throw new Error('refund not recorded');
  return row;
}

/**
 * The refund this request reserved on an earlier try whose answer a crash lost (the request's
 * changeGuid names it), so a retry under the same key goes on with it instead of refunding again.
 * A refund the provider refused was given back (its row removed): tried again, the provider
 * answers the same key the same way.
 */
async function reservedBefore(tx: Tx, key: string) {
  const [row] = await tx.select().from(refunds).where(eq(refunds.idempotencyKey, key));
  return row ?? null;
}

/** POST /lab_orders/{id}/refund (admin): part or all of what is left, with the reason, mailed to the photographer. */
export async function refundOrder(
  deps: ServerDeps,
  actor: Actor | null,
  guid: string,
  input: { refund_amount: string | number; refund_note?: string | undefined },
  requestGuid: string = randomUUID(),
) {
  const admin = requireAdmin(actor);
  const cents = refundCents(input.refund_amount);
  const note = input.refund_note?.trim() || null;
  const { order, photographer } = await visibleOrder(deps, admin, guid);
  const key = `refund-${order.guid}-${requestGuid}`;
  const reserved = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(labOrders).where(eq(labOrders.id, order.id)).for('update');
    const earlier = await reservedBefore(tx, key);
    if (locked && earlier) return { row: earlier, locked };
    if (!locked?.paymentConfirmation) throw validationError(NOTHING_CHARGED);
    if (cents > leftToRefund(locked)) throw validationError(tooMuch(leftToRefund(locked)));
    return { row: await reserve(tx, locked, admin, cents, note, 'refund', key), locked };
  });
  if (reserved.row.status === 'succeeded') return fullOrderAnswer(deps, admin, reserved.locked, photographer);
  const outcome = await askProvider(deps, reserved.locked, reserved.row);
  // No answer: it may have been made. The row stays pending; recovery settles it from the provider.
  if ('unknown' in outcome) throw new HttpError(502, 'RefundPending', REFUND_PENDING);
  const settled = await deps.db.transaction(async (tx) => {
    if ('refused' in outcome) {
      await giveBack(tx, reserved.row.id);
      return null;
    }
    const done = await settleMade(tx, reserved.row.id, outcome.made);
    return done ? { mailId: await deps.mailer.queue(tx, done.mail) } : { mailId: null };
  });
  if (!settled) throw new HttpError(502, 'RefundFailed', REFUND_FAILED);
  if (settled.mailId) await deps.mailer.deliver(settled.mailId);
  await kickDeliveries(deps);
  const [updated] = await deps.db.select().from(labOrders).where(eq(labOrders.id, order.id));
  return fullOrderAnswer(deps, admin, updated ?? reserved.locked, photographer);
}

/**
 * POST /lab_orders/{id}/cancel (the photographer): while paid (the lab has not started it) and
 * within CANCEL_WINDOW_MINUTES of payment. The card is refunded what is left of the charge, the
 * credit spent comes back, the discount use is given back, the photographer is mailed.
 */
export async function cancelOrder(deps: ServerDeps, actor: Actor | null, guid: string, requestGuid: string = randomUUID()) {
  const order = await ownOrder(deps, actor, guid);
  const me = actor as Actor;
  const minutes = deps.config.cancelWindowMinutes;
  const now = deps.now?.() ?? new Date();
  const key = `refund-${order.guid}-${requestGuid}`;
  const begun = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(labOrders).where(eq(labOrders.id, order.id)).for('update');
    // Cancelled by an earlier try of this request whose answer a crash lost: go on with its refund.
    const earlier = await reservedBefore(tx, key);
    if (locked && earlier) return { locked, row: earlier };
    const until = locked ? cancelUntil(locked, minutes) : null;
    const open = locked?.status === 'paid' && until !== null && now.getTime() <= until.getTime();
    if (!locked || !open) throw validationError(cancelClosed(minutes));
    // Marked cancelled now, under the lock: the lab cannot start it while the card is refunded.
    await tx.update(labOrders).set({ status: 'cancelled', cancelledAt: now }).where(eq(labOrders.id, order.id));
    const left = leftToRefund(locked);
    return { locked, row: left > 0 && locked.paymentConfirmation ? await reserve(tx, locked, me, left, CANCEL_NOTE, 'cancel', key) : null };
  });
  if (begun.row?.status === 'succeeded') return fullOrderAnswer(deps, me, begun.locked, me.user);
  const outcome = begun.row ? await askProvider(deps, begun.locked, begun.row) : null;
  // No answer from the provider: the order stays cancelled with its refund pending; recovery
  // settles it from the provider's record (and finishes the cancellation, or undoes it).
  if (outcome && 'unknown' in outcome) throw new HttpError(502, 'RefundPending', CANCEL_PENDING);
  const { mailId, updated } = await deps.db.transaction(async (tx) => {
    if (begun.row && outcome && 'refused' in outcome) {
      // Not refunded: the order stays paid, as it was.
      await giveBack(tx, begun.row.id);
      return { mailId: null, updated: null };
    }
    const mail = begun.row && outcome && 'made' in outcome ? (await settleMade(tx, begun.row.id, outcome.made))?.mail : await finishCancel(tx, begun.locked, 0, me.user.guid);
    const [row] = await tx.select().from(labOrders).where(eq(labOrders.id, begun.locked.id));
    return { mailId: mail ? await deps.mailer.queue(tx, mail) : null, updated: row ?? null };
  });
  if (!updated) throw new HttpError(502, 'RefundFailed', 'The payment provider did not make the refund, so the order is not cancelled. Please try again.');
  if (mailId) await deps.mailer.deliver(mailId);
  await kickDeliveries(deps);
  return fullOrderAnswer(deps, me, updated, me.user);
}
