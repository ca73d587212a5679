import { and, count, eq, inArray, max, sql } from 'drizzle-orm';
import type { ChargeRecord } from '../adapters/payments/payments.ts';
import type { Tx } from '../db/client.ts';
import { cards, creditLedger, labOrders, lineItems, payments, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { validationError } from '../http/errors.ts';
import { orderMinimumMessage } from '../../src/domain/order-minimum.ts';
import { orderMinimumCents } from './catalogue-service.ts';
import { discountCodeRefusal, releaseDiscountUse, reserveDiscountUse } from './discount-service.ts';
import type { OrderRow } from './order-access.ts';
import { NOT_ENOUGH_CREDIT, NOT_OPEN_TO_CHECKOUT } from './order-changes.ts';
import { orderFigures, saveFigures } from './order-figures.ts';
import { receiptMail } from './receipt-mail.ts';
import { accrueReferralCredit } from './referral-service.ts';
import { queuePartnerEvent } from './partner-events.ts';
import { promiseShipDate } from './order-ship-dates.ts';
import { clientAddressOf } from './client-address.ts';

/**
 * The two transactions around a charge (issue 12). No transaction is open while the provider is
 * asked: the embedded database has one connection, and a transaction held across a network call
 * would stall every other request.
 *
 *   begin   (tx1): lock the order, check the rules, recompute the figures, reserve the credit and
 *                  the discount use, write a `pending` payment (one per order: a partial unique
 *                  index); or, when credit covers everything, finish it there and then.
 *   charge        : the provider, once per idempotency key.
 *   settle  (tx2): `succeeded` → the order is paid, the card kept or hidden, the referrer's
 *                  credit accrued and the receipt queued, all at once; otherwise the payment is
 *                  marked declined or failed and the reservations are given back.
 */

export const NO_LINE_ITEMS = 'You have no line items!';
export const NOT_READY = 'You need a shipping address and credit card to checkout!';
// The ledger's reason for credit spent on an order (one row per order, as referral credit).
const CREDIT_SPENT = 'order';

export type PaymentRow = typeof payments.$inferSelect;

export type Begun =
  | { kind: 'closed'; order: OrderRow }
  | { kind: 'inFlight'; payment: PaymentRow }
  | { kind: 'paid'; mailId: string | null }
  | { kind: 'changed'; totalCents: number }
  | { kind: 'charge'; payment: PaymentRow; providerCardId: string; customerId: string | null; orderGuid: string; orderName: string };

/** What the provider is told the charge is for; the key also rides in the metadata. */
export const chargeDescription = (orderName: string) => `Print lab order ${orderName}`;

/** The charge's idempotency key: the order and the attempt (a retry after a decline is a new attempt). */
export const idempotencyKeyFor = (orderGuid: string, attempt: number) => `lab-order-${orderGuid}-attempt-${attempt}`;

/** tx1: everything up to the charge. Throws the contract's refusals; nothing is kept when it does. */
export async function beginCheckout(deps: Pick<ServerDeps, 'db' | 'config' | 'mailer' | 'now'>, orderId: number, saveCard: boolean, requestKey: string | null = null): Promise<Begun> {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction(async (tx): Promise<Begun> => {
    const [order] = await tx.select().from(labOrders).where(eq(labOrders.id, orderId)).for('update');
    if (!order) throw validationError(NOT_OPEN_TO_CHECKOUT);
    if (order.status !== 'open') return { kind: 'closed', order };
    const [live] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.labOrderId, orderId), inArray(payments.status, ['pending', 'succeeded'])));
    // A succeeded payment of an order set open again (by the lab) is not paid twice.
    if (live?.status === 'succeeded') return { kind: 'closed', order };
    if (live) return { kind: 'inFlight', payment: live };
    const [items] = await tx.select({ n: count() }).from(lineItems).where(eq(lineItems.labOrderId, orderId));
    if (!items?.n) throw validationError(NO_LINE_ITEMS);

    const [owner] = await tx.select().from(users).where(eq(users.guid, order.userGuid)).for('update');
    if (!owner) throw validationError(NOT_OPEN_TO_CHECKOUT);
    const figures = await orderFigures(tx, order);
    // The lab's order minimum counts the merchandise, the SUBTOTAL (src/domain/order-minimum.ts).
    const belowMinimum = orderMinimumMessage(figures.subtotal, await orderMinimumCents(tx));
    if (belowMinimum) throw validationError(belowMinimum);
    const [card] = order.selectedCardId ? await tx.select().from(cards).where(and(eq(cards.id, order.selectedCardId), eq(cards.userGuid, order.userGuid))) : [];
    // Readiness (docs/orders.md §4): somewhere to send it (an address, the client's, or local pickup), and a card
    // unless nothing is left to charge.
    const shipsToClient = !order.localPickup && (await clientAddressOf(tx, order.id)) !== null;
    if ((!order.shippingAddress && !order.localPickup && !shipsToClient) || (figures.total > 0 && !card)) throw validationError(NOT_READY);
    // The credit the order showed is the credit spent: if another order spent some of it
    // meanwhile, say so rather than charge the card more than the photographer saw.
    if (figures.credit < order.creditCents) throw validationError(NOT_ENOUGH_CREDIT);
    // The photographer confirmed the TOTAL the order showed, which is the stored one. If something
    // moved it since (credit given back by another order's declined payment, say), store the new
    // figures and let them look again rather than charge an amount they did not see.
    if (figures.total !== order.totalCents) {
      await saveFigures(tx, orderId, figures);
      return { kind: 'changed', totalCents: figures.total };
    }
    if (order.discountCodeId && !(await reserveDiscountUse(tx, order.discountCodeId, now))) throw validationError(await discountCodeRefusal(tx, { id: order.discountCodeId }, now));
    if (figures.credit > 0) {
      await tx.update(users).set({ creditAvailableCents: sql`${users.creditAvailableCents} - ${figures.credit}` }).where(eq(users.guid, owner.guid));
      await tx.insert(creditLedger).values({ userGuid: owner.guid, amountCents: -figures.credit, reason: CREDIT_SPENT, labOrderId: orderId });
    }
    await saveFigures(tx, orderId, figures);

    const [last] = await tx.select({ attempt: max(payments.attempt) }).from(payments).where(eq(payments.labOrderId, orderId));
    const attempt = (last?.attempt ?? 0) + 1;
    const [payment] = await tx
      .insert(payments)
      .values({
        labOrderId: orderId,
        attempt,
        idempotencyKey: idempotencyKeyFor(order.guid, attempt),
        requestKey,
        amountCents: figures.total,
        creditCents: figures.credit,
        discountCodeId: order.discountCodeId,
        cardId: figures.total > 0 ? (card?.id ?? null) : null,
        saveCard,
        status: figures.total > 0 ? 'pending' : 'succeeded',
      })
      .returning();
    if (!payment) throw new Error('payment not recorded');
    // Credit (or a discount) covers everything: no charge, one transaction.
    if (figures.total === 0) return { kind: 'paid', mailId: await markPaid(tx, deps, payment, null) };
    return { kind: 'charge', payment, providerCardId: card?.providerCardId ?? '', customerId: owner.stripeCustomerId, orderGuid: order.guid, orderName: order.orderName };
  });
}

/** In the settling transaction: the order paid, the card as asked, the referrer's credit, the receipt queued. */
async function markPaid(tx: Tx, deps: Pick<ServerDeps, 'config' | 'mailer'>, payment: PaymentRow, chargeId: string | null): Promise<string | null> {
  const [paid] = await tx
    .update(labOrders)
    .set({ status: 'paid', paidAt: sql`now()`, paymentConfirmation: chargeId, updatedAt: sql`now()` })
    .where(eq(labOrders.id, payment.labOrderId))
    .returning();
  if (!paid) throw new Error('paid order not found');
  const order = await promiseShipDate(tx, paid);
  if (payment.cardId && payment.saveCard) {
    // SAVE CARD FOR FUTURE USE: the card joins the list (and is primary if there was none).
    await tx.update(cards).set({ kept: true }).where(eq(cards.id, payment.cardId));
    await tx.update(users).set({ defaultCardId: payment.cardId }).where(and(eq(users.guid, order.userGuid), sql`${users.defaultCardId} is null`));
  }
  await accrueReferralCredit(tx, deps.config.referralCreditPercent, order.id);
  await queuePartnerEvent(tx, order, 'order.accepted');
  return deps.mailer.queue(tx, await receiptMail(tx, order));
}

/** What became of a charge: the provider's record, its refusal, or none made (failed). */
export type Outcome = { charge: ChargeRecord } | { declined: string } | { failed: string };

/**
 * tx2: settles a pending payment once, whoever gets there first (the request that charged, or
 * recovery). Answers the queued receipt's id when this call marked the order paid.
 */
export async function settlePayment(deps: Pick<ServerDeps, 'db' | 'config' | 'mailer'>, paymentId: string, outcome: Outcome): Promise<{ settled: boolean; mailId: string | null }> {
  return deps.db.transaction(async (tx) => {
    const [found] = await tx.select({ orderId: payments.labOrderId }).from(payments).where(eq(payments.id, paymentId));
    if (!found) return { settled: false, mailId: null };
    // The order first, then the payment: the same order of locks as beginCheckout.
    await tx.select({ id: labOrders.id }).from(labOrders).where(eq(labOrders.id, found.orderId)).for('update');
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (!payment || payment.status !== 'pending') return { settled: false, mailId: null };
    if ('charge' in outcome && outcome.charge.status === 'succeeded') {
      await tx.update(payments).set({ status: 'succeeded', providerChargeId: outcome.charge.id, updatedAt: sql`now()` }).where(eq(payments.id, paymentId));
      return { settled: true, mailId: await markPaid(tx, deps, payment, outcome.charge.id) };
    }
    const declined = 'charge' in outcome ? { id: outcome.charge.id, message: outcome.charge.message } : 'declined' in outcome ? { id: null, message: outcome.declined } : null;
    await tx
      .update(payments)
      .set({
        status: declined ? 'declined' : 'failed',
        providerChargeId: declined?.id ?? null,
        message: declined ? declined.message : 'failed' in outcome ? outcome.failed : null,
        updatedAt: sql`now()`,
      })
      .where(eq(payments.id, paymentId));
    await release(tx, payment);
    return { settled: true, mailId: null };
  });
}

/** Gives back what a payment that did not succeed reserved: its credit and its discount use. */
async function release(tx: Tx, payment: PaymentRow): Promise<void> {
  if (payment.creditCents > 0) {
    const [order] = await tx.select({ userGuid: labOrders.userGuid }).from(labOrders).where(eq(labOrders.id, payment.labOrderId));
    if (order) await tx.update(users).set({ creditAvailableCents: sql`${users.creditAvailableCents} + ${payment.creditCents}` }).where(eq(users.guid, order.userGuid));
    await tx.delete(creditLedger).where(and(eq(creditLedger.labOrderId, payment.labOrderId), eq(creditLedger.reason, CREDIT_SPENT)));
  }
  if (payment.discountCodeId) await releaseDiscountUse(tx, payment.discountCodeId);
}
