import { eq, sql } from 'drizzle-orm';
import { BOUTIQUE_PACKAGING_CENTS, discountCents, linePriceCents, orderTotals, type OrderTotals } from '../../src/domain/pricing.ts';
import type { Tx } from '../db/client.ts';
import { albums, discountCodes, labOrders, lineItems, orderClientAddresses, users } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { catalogueShipping } from './catalogue-service.ts';
import { discountRule } from './discount-service.ts';
import type { OrderRow } from './order-access.ts';

/**
 * An order's figures, always from pricing.ts over what the database holds: its line items' prices,
 * its discount code, the credit asked for (up to what the photographer has), local pickup, its
 * shipping speed and drop-ship priced by the active catalogue, and boutique packaging. The cart, the checkout changes and checkout itself all call this; nothing a
 * client sends is a figure.
 */

const NOTHING: OrderTotals = { subtotal: 0, prints: 0, finishing: 0, discount: 0, credit: 0, shipping: 0, dropShip: 0, boutique: 0, total: 0 };

type FigureLine = { printCents: number; finishingCents: number; quantity: number };

export async function orderFigures(tx: Tx, order: OrderRow): Promise<OrderTotals> {
  // What the figures are made of, in one round trip (every cart change waits for each one in
  // turn): the line items' prices, each custom album priced as a whole (album-service.ts: one line
  // of its total), and the credit the photographer has.
  const [inputs] = await tx
    .select({
      prints: sql<FigureLine[]>`coalesce((select json_agg(json_build_object(
        'printCents', l.print_cents, 'finishingCents', l.finishing_cents, 'quantity', l.quantity
      )) from ${lineItems} l where l.lab_order_id = ${order.id}), '[]'::json)`,
      albumTotals: sql<number[]>`coalesce((select json_agg(a.total_cents) from ${albums} a where a.lab_order_id = ${order.id}), '[]'::json)`,
      credit: sql<number | null>`(select u.credit_available_cents from ${users} u where u.guid = ${order.userGuid})`,
      dropShip: sql<boolean>`exists (select 1 from ${orderClientAddresses} c where c.lab_order_id = ${order.id})`,
    })
    .from(labOrders)
    .where(eq(labOrders.id, order.id));
  const albumLines = (inputs?.albumTotals ?? []).map((totalCents) => ({ printCents: totalCents, finishingCents: 0, quantity: 1 }));
  const lines = [...(inputs?.prints ?? []), ...albumLines];
  // An empty cart owes nothing, shipping included: it is not an order yet, as when it was created.
  if (!lines.length) return NOTHING;
  const [code] = order.discountCodeId ? await tx.select().from(discountCodes).where(eq(discountCodes.id, order.discountCodeId)) : [];
  const subtotal = lines.reduce((sum, line) => sum + linePriceCents(line), 0);
  const shipping = await catalogueShipping(tx);
  return orderTotals({
    lines,
    discountCents: discountCents(code ? discountRule(code) : null, subtotal),
    creditRequestedCents: order.creditRequestedCents,
    creditAvailableCents: inputs?.credit ?? 0,
    localPickup: order.localPickup,
    shippingSpeedCents: shipping.speedCents[order.shippingSpeed],
    dropShipFeeCents: inputs?.dropShip ? shipping.dropShipFeeCents : 0,
    boutiquePackagingCents: order.boutiqueShipping ? BOUTIQUE_PACKAGING_CENTS : 0,
  });
}

/** Stores the figures of `totals` on the order (the sales report and the answer read them). */
export async function saveFigures(tx: Tx, orderId: number, totals: OrderTotals): Promise<OrderRow> {
  const [updated] = await tx
    .update(labOrders)
    .set({
      subtotalCents: totals.subtotal,
      discountCents: totals.discount,
      creditCents: totals.credit,
      finishingCents: totals.finishing,
      shippingCents: totals.shipping,
      dropShipCents: totals.dropShip,
      boutiqueCents: totals.boutique,
      totalCents: totals.total,
      updatedAt: sql`now()`,
    })
    .where(eq(labOrders.id, orderId))
    .returning();
  if (!updated) throw notFound('This order does not exist.');
  return updated;
}

/** Computes the order's figures afresh (reading the row as it now stands) and stores them. */
export async function refreshFigures(tx: Tx, orderId: number): Promise<OrderRow> {
  const [order] = await tx.select().from(labOrders).where(eq(labOrders.id, orderId));
  if (!order) throw notFound('This order does not exist.');
  return saveFigures(tx, orderId, await orderFigures(tx, order));
}
