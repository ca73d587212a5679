import { asc, eq } from 'drizzle-orm';
import { labDateOf, shipByDate, shipDatesFrom, type Holidays, type ShipDates } from '../../src/domain/ship-dates.ts';
import type { ShippingSpeed } from '../../src/domain/shipping-speeds.ts';
import { DEFAULT_TURNAROUND, orderTurnaroundDays, type Turnaround } from '../../src/domain/turnaround.ts';
import type { Db, Tx } from '../db/client.ts';
import { catalogues, labOrders, orderDelays } from '../db/schema.ts';
import type { OrderRow } from './order-access.ts';

/**
 * An order's ship dates (issue 34): estimated from today while it is open, promised at payment
 * and kept on the order, moved by each delay (delay-notices.ts). docs/lab-rules.md, "Turnaround".
 */

/** The lab's calendar: the active catalogue's turnaround per product family and its holidays. */
export async function labCalendar(db: Db | Tx): Promise<{ turnaround: Turnaround; holidays: Holidays }> {
  const [row] = await db.select({ days: catalogues.turnaroundDays, holidays: catalogues.holidays }).from(catalogues).where(eq(catalogues.active, true)).limit(1);
  return { turnaround: row?.days ?? DEFAULT_TURNAROUND, holidays: row?.holidays ?? [] };
}

/** The carrier service an order travels by; null for local pickup, which travels nowhere. */
export const shippingSpeedOf = (order: Pick<OrderRow, 'localPickup' | 'shippingSpeed'>): ShippingSpeed | null => (order.localPickup ? null : order.shippingSpeed);

/** In the paying transaction: the ship-by day the lab promises, from the day it was paid. */
export async function promiseShipDate(tx: Tx, order: OrderRow): Promise<OrderRow> {
  const { turnaround, holidays } = await labCalendar(tx);
  const promised = shipByDate(labDateOf(order.paidAt ?? new Date()), orderTurnaroundDays(order, turnaround), holidays);
  const [row] = await tx.update(labOrders).set({ promisedShipDate: promised }).where(eq(labOrders.id, order.id)).returning();
  return row ?? order;
}

/** The promised dates of a paid order, with its arrival range; null before the promise. */
export const promisedShipDates = (order: OrderRow): ShipDates | null => (order.promisedShipDate ? shipDatesFrom(order.promisedShipDate, shippingSpeedOf(order)) : null);

/** What the order detail and the final review show: the promise, or while open the estimate if paid today. */
export async function shipDatesOf(db: Db, order: OrderRow, now: Date): Promise<ShipDates | null> {
  if (order.status === 'cancelled') return null;
  if (order.status !== 'open') return promisedShipDates(order);
  const { turnaround, holidays } = await labCalendar(db);
  return shipDatesFrom(shipByDate(labDateOf(now), orderTurnaroundDays(order, turnaround), holidays), shippingSpeedOf(order));
}

/** An order's delays, oldest first, as the photographer reads them. */
export async function delaysOf(db: Db | Tx, orderId: number) {
  const rows = await db.select().from(orderDelays).where(eq(orderDelays.labOrderId, orderId)).orderBy(asc(orderDelays.id));
  return rows.map((d) => ({
    old_ship_by: d.oldDate,
    new_ship_by: d.newDate,
    reason: d.reason,
    declared_by: d.declaredBy as 'schedule' | 'admin',
    declared_at: d.createdAt.toISOString(),
  }));
}
