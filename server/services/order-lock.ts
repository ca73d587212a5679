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
  const [pending] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.labOrderId, orderId), eq(payments.status, 'pending')))
    .limit(1);
  if (pending) throw beingPaid();
  return row;
}
