import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { clientAddressInput } from '../../src/contract/shapes.ts';
import { labOrders, orderClientAddresses } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import type { Actor } from './auth-service.ts';
import { fullOrderAnswer } from './line-item-answer.ts';
import { visibleOrder } from './order-access.ts';
import { notOpenToCheckout } from './order-changes.ts';
import { refreshFigures } from './order-figures.ts';
import { lockOpenOrder } from './order-lock.ts';

/**
 * Drop-ship (issue 34): an order sent straight to the photographer's client. The client's name and
 * address are the order's own (table order_client_addresses), never one of the photographer's
 * saved addresses, so they never become the primary address nor show on /account. The fee is the
 * catalogue's, priced with the other figures (order-figures.ts).
 */

export type ClientAddressInput = z.output<typeof clientAddressInput>;
/** PUT /lab_orders/{id}/drop_ship: the owner's order (any for an admin), while open. */
export async function setDropShip(deps: ServerDeps, actor: Actor | null, orderGuid: string, input: ClientAddressInput) {
  const { order, photographer } = await visibleOrder(deps, actor, orderGuid);
  const address = {
    recipient: input.recipient_name,
    street: input.street_address,
    street2: input.street_address_two?.trim() || null,
    city: input.city,
    state: input.state,
    zip: input.zip,
  };
  const updated = await deps.db.transaction(async (tx) => {
    await lockOpenOrder(tx, order.id, notOpenToCheckout);
    await tx
      .insert(orderClientAddresses)
      .values({ labOrderId: order.id, ...address })
      .onConflictDoUpdate({ target: orderClientAddresses.labOrderId, set: { ...address, updatedAt: sql`now()` } });
    // Shipped to the client, so not picked up at the lab.
    await tx.update(labOrders).set({ localPickup: false }).where(eq(labOrders.id, order.id));
    return refreshFigures(tx, order.id);
  });
  return fullOrderAnswer(deps, actor as Actor, updated, photographer);
}

/** DELETE /lab_orders/{id}/drop_ship: the order ships to the studio again. */
export async function removeDropShip(deps: ServerDeps, actor: Actor | null, orderGuid: string) {
  const { order, photographer } = await visibleOrder(deps, actor, orderGuid);
  const updated = await deps.db.transaction(async (tx) => {
    await lockOpenOrder(tx, order.id, notOpenToCheckout);
    await tx.delete(orderClientAddresses).where(eq(orderClientAddresses.labOrderId, order.id));
    return refreshFigures(tx, order.id);
  });
  return fullOrderAnswer(deps, actor as Actor, updated, photographer);
}
