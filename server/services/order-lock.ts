import { and, eq } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { labOrders, payments } from '../db/schema.ts';
import { HttpError, notFound } from '../http/errors.ts';
import type { OrderRow } from './order-access.ts';

export const BEING_PAID = 'This order is already being paid. Please wait a moment.';
export const beingPaid = () => new HttpError(409, 'PaymentInProgress', BEING_PAID);

/**
 * Holds an open order for the rest of the transaction (checkout and other changes wait) and
 * answers it as it now stands. While a payment of it is in flight, nothing that moves its figures
 * may change: the card is being charged the figures of the moment the payment started.
 */
export async function lockOpenOrder(tx: Tx, orderId: number, notOpen: () => HttpError): Promise<OrderRow> {
  const [row] = await tx.select().from(labOrders).where(eq(labOrders.id, orderId)).for('update');
  if (!row) throw notFound('This order does not exist.');
  if (row.status !== 'open') throw notOpen();
  await refuseWhileBeingPaid(tx, orderId);
  return row;
}

/**
 * Refuses a change while a payment of the order is in flight: its settling would overwrite it
 * (an order an admin cancels during the charge would end paid). Call with the order row locked.
 */
export async function refuseWhileBeingPaid(tx: Tx, orderId: number): Promise<void> {
  const [pending] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.labOrderId, orderId), eq(payments.status, 'pending')))
    .limit(1);
  if (pending) throw beingPaid();
}
