import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { formatMoney, toCents } from '../../src/domain/money.ts';
import { RefundError } from '../adapters/payments/payments.ts';
import type { OutgoingMail } from '../adapters/mail/mail-transport.ts';
import type { Tx } from '../db/client.ts';
import { creditLedger, labOrders, refunds, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { releaseDiscountUse } from './discount-service.ts';
import { fullOrderAnswer } from './line-item-answer.ts';
import { ownOrder, visibleOrder, type OrderRow } from './order-access.ts';
import { recordEvent } from './order-events.ts';
import { requireAdmin } from './admin-guard.ts';
import { clawBackReferralCredit, clawbackText } from './referral-service.ts';

/**
 * Refunds (admin) and cancellation (the photographer, within the window), through the payment
 * adapter (ADMIN-CONTRACT.md Decisions). As checkout does, the provider is called outside any
 * transaction: the refund is first reserved (a refunds row without provider id, the order's
 * refund_cents raised) under the order's lock, so two refunds at once can never give back more
 * than was paid; then the provider refunds once per idempotency key; then the row is settled, or
 * the reservation given back if the provider refused.
 */

export const REFUND_RULE = 'Enter the refund as an amount in dollars with at most 2 decimals, more than 0.';
export const NOTHING_CHARGED = 'This order was not paid by card: there is no charge to refund.';
export const REFUND_FAILED = 'The payment provider did not make the refund; nothing was refunded. Please try again.';
export const tooMuch = (leftCents: number) => `The refund is more than what is left to refund (${formatMoney(leftCents)}).`;
export const cancelClosed = (minutes: number) => `This order can no longer be cancelled: the lab has started it or the ${minutes} minutes have passed.`;
// The reason in the credit ledger when a cancelled order's spent credit comes back.
const CREDIT_RETURNED = 'cancel_returned';
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

async function reserve(tx: Tx, order: OrderRow, actor: Actor, cents: number, note: string | null) {
  const key = `refund-${order.guid}-${randomUUID()}`;
  const [row] = await tx.insert(refunds).values({ labOrderId: order.id, amountCents: cents, note, actorGuid: actor.user.guid, idempotencyKey: key }).returning();
  await tx.update(labOrders).set({ refundCents: sql`${labOrders.refundCents} + ${cents}` }).where(eq(labOrders.id, order.id));
  if (!row) throw new Error('refund not recorded');
  return row;
}

/** Gives back a reservation the provider refused. */
async function unreserve(tx: Tx, orderId: number, refundId: string, cents: number) {
  await tx.delete(refunds).where(eq(refunds.id, refundId));
  await tx.update(labOrders).set({ refundCents: sql`${labOrders.refundCents} - ${cents}` }).where(eq(labOrders.id, orderId));
}

async function providerRefund(deps: Pick<ServerDeps, 'payments'>, order: OrderRow, reserved: typeof refunds.$inferSelect) {
  try {
    return await deps.payments.refund({ chargeId: order.paymentConfirmation ?? '', amountCents: reserved.amountCents, idempotencyKey: reserved.idempotencyKey, metadata: { order: order.guid } });
  } catch (err) {
    return { error: err instanceof RefundError ? err.message : String(err) };
  }
}

const refundMail = (email: string, order: OrderRow, cents: number, note: string | null): OutgoingMail => ({
  to: email,
  subject: `A refund of ${formatMoney(cents)} for your order ${order.orderName}`,
  text: [`The lab has refunded ${formatMoney(cents)} of your order ${order.orderName} to the card you paid with.`, ...(note ? ['', `Reason: ${note}`] : []), '', 'It shows on your statement within 5 to 10 business days.'].join('\n'),
});

const ownerEmail = async (tx: Tx, order: OrderRow) => (await tx.select({ email: users.email }).from(users).where(eq(users.guid, order.userGuid)))[0]?.email ?? '';

/**
 * A refund of the whole charge makes the order earn its referrer nothing, as a cancellation does:
 * the referral credit is taken back. Counted over the refunds the provider made (settled rows), not
 * reservations still in flight, so a refund the provider then refuses never triggers it. A partial
 * refund (a scratched print) leaves the sale, and the referral, standing.
 */
async function clawBackIfRefundedInFull(tx: Tx, order: OrderRow, actor: Actor) {
  if (order.totalCents <= 0) return;
  const [settled] = await tx
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.labOrderId, order.id), isNotNull(refunds.providerRefundId)));
  if (Number(settled?.cents ?? 0) < order.totalCents) return;
  const clawback = await clawBackReferralCredit(tx, order.id);
  if (clawback) await recordEvent(tx, order.id, actor.user.guid, 'referral_clawback', { detail: clawbackText(clawback, formatMoney) });
}

/** POST /lab_orders/{id}/refund (admin): part or all of what is left, with the reason, mailed to the photographer. */
export async function refundOrder(deps: ServerDeps, actor: Actor | null, guid: string, input: { refund_amount: string | number; refund_note?: string | undefined }) {
  const admin = requireAdmin(actor);
  const cents = refundCents(input.refund_amount);
  const note = input.refund_note?.trim() || null;
  const { order, photographer } = await visibleOrder(deps, admin, guid);
  const reserved = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(labOrders).where(eq(labOrders.id, order.id)).for('update');
    if (!locked?.paymentConfirmation) throw validationError(NOTHING_CHARGED);
    if (cents > leftToRefund(locked)) throw validationError(tooMuch(leftToRefund(locked)));
    return { row: await reserve(tx, locked, admin, cents, note), locked };
  });
  const made = await providerRefund(deps, reserved.locked, reserved.row);
  const { updated, mailId } = await deps.db.transaction(async (tx) => {
    if ('error' in made) {
      await unreserve(tx, order.id, reserved.row.id, cents);
      return { updated: null, mailId: null };
    }
    await tx.update(refunds).set({ providerRefundId: made.id }).where(eq(refunds.id, reserved.row.id));
    await recordEvent(tx, order.id, admin.user.guid, 'refund', { to: (cents / 100).toFixed(2), detail: note });
    await clawBackIfRefundedInFull(tx, reserved.locked, admin);
    const [row] = await tx.select().from(labOrders).where(eq(labOrders.id, order.id));
    return { updated: row ?? null, mailId: row ? await deps.mailer.queue(tx, refundMail(await ownerEmail(tx, row), row, cents, note)) : null };
  });
  if (!updated) throw new HttpError(502, 'RefundFailed', REFUND_FAILED);
  if (mailId) await deps.mailer.deliver(mailId);
  return fullOrderAnswer(deps, admin, updated, photographer);
}

/**
 * POST /lab_orders/{id}/cancel (the photographer): while paid (the lab has not started it) and
 * within CANCEL_WINDOW_MINUTES of payment. The card is refunded what is left of the charge, the
 * credit spent comes back, the discount use is given back, the photographer is mailed.
 */
export async function cancelOrder(deps: ServerDeps, actor: Actor | null, guid: string) {
  const order = await ownOrder(deps, actor, guid);
  const me = actor as Actor;
  const minutes = deps.config.cancelWindowMinutes;
  const now = deps.now?.() ?? new Date();
  const begun = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(labOrders).where(eq(labOrders.id, order.id)).for('update');
    const until = locked ? cancelUntil(locked, minutes) : null;
    const open = locked?.status === 'paid' && until !== null && now.getTime() <= until.getTime();
    if (!locked || !open) throw validationError(cancelClosed(minutes));
    // Marked cancelled now, under the lock: the lab cannot start it while the card is refunded.
    await tx.update(labOrders).set({ status: 'cancelled', cancelledAt: now }).where(eq(labOrders.id, order.id));
    const left = leftToRefund(locked);
    return { locked, row: left > 0 && locked.paymentConfirmation ? await reserve(tx, locked, me, left, CANCEL_NOTE) : null };
  });
  const made = begun.row ? await providerRefund(deps, begun.locked, begun.row) : null;
  const { mailId, updated } = await deps.db.transaction(async (tx) => {
    const o = begun.locked;
    if (made && 'error' in made) {
      // Not refunded: the order stays paid, as it was.
      if (begun.row) await unreserve(tx, o.id, begun.row.id, begun.row.amountCents);
      await tx.update(labOrders).set({ status: 'paid', cancelledAt: null }).where(eq(labOrders.id, o.id));
      return { mailId: null, updated: null };
    }
    if (begun.row && made) await tx.update(refunds).set({ providerRefundId: made.id }).where(eq(refunds.id, begun.row.id));
    if (o.creditCents > 0) {
      await tx.update(users).set({ creditAvailableCents: sql`${users.creditAvailableCents} + ${o.creditCents}` }).where(eq(users.guid, o.userGuid));
      await tx.insert(creditLedger).values({ userGuid: o.userGuid, amountCents: o.creditCents, reason: CREDIT_RETURNED, labOrderId: o.id }).onConflictDoNothing();
    }
    if (o.discountCodeId) await releaseDiscountUse(tx, o.discountCodeId);
    // A cancelled order earns its referrer nothing: the credit its payment gave is taken back.
    const clawback = await clawBackReferralCredit(tx, o.id);
    const refunded = begun.row?.amountCents ?? 0;
    const detail = [`refunded ${formatMoney(refunded)}, credit returned ${formatMoney(o.creditCents)}`, ...(clawback ? [clawbackText(clawback, formatMoney)] : [])].join('; ');
    await recordEvent(tx, o.id, me.user.guid, 'cancel', { from: 'paid', to: 'cancelled', detail });
    const mail: OutgoingMail = {
      to: await ownerEmail(tx, o),
      subject: `Your order ${o.orderName} is cancelled`,
      text: [`Your order ${o.orderName} is cancelled.`, '', `Refunded to your card: ${formatMoney(refunded)}`, `Credit returned to your account: ${formatMoney(o.creditCents)}`].join('\n'),
    };
    const [row] = await tx.select().from(labOrders).where(and(eq(labOrders.id, o.id)));
    return { mailId: await deps.mailer.queue(tx, mail), updated: row ?? null };
  });
  if (!updated) throw new HttpError(502, 'RefundFailed', 'The payment provider did not make the refund, so the order is not cancelled. Please try again.');
  if (mailId) await deps.mailer.deliver(mailId);
  return fullOrderAnswer(deps, me, updated, me.user);
}
