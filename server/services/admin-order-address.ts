import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { labOrders, orderClientAddresses, type ShippingAddressSnapshot } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { forbidden, notFound, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { clientAddressLine, clientAddressOf, type ClientAddressRow } from './client-address.ts';
import { visibleOrder, type OrderRow } from './order-access.ts';
import { recordEvent } from './order-events.ts';
import { refreshFigures } from './order-figures.ts';
import { refuseWhileBeingPaid } from './order-lock.ts';

/**
 * The admin panel's EDIT ADDRESS (docs/orders.md §6: "edit shipping address"), through the spec's own
 * address call: POST /addresses with lab_order_id and update_address_on_order, sent by an admin
 * for a photographer's order. The corrected address goes on that order only: it is the lab fixing
 * where one parcel goes, so no one's saved addresses change (the photographer's book is theirs).
 * On a drop-ship the parcel goes to the photographer's client, so it is the client's address
 * (order_client_addresses) that is corrected, with the same checks.
 */

// Once the parcel has left, the address on record is where it went; a cancelled order goes nowhere.
const FIXED_STATUSES: Record<string, string> = {
  shipped: 'The shipping address can no longer be changed: the order has shipped.',
  cancelled: 'The shipping address of a cancelled order cannot be changed.',
};

export interface AdminAddress {
  recipient_name?: string | undefined;
  street_address: string;
  street_address_two?: string | undefined;
  city: string;
  state: string;
  zip: string;
}

/** The address on one line, as the order's history shows it. */
export const addressLine = (a: ShippingAddressSnapshot | null): string | null =>
  a ? [a.recipient, a.street, a.street2, `${a.city}, ${a.state} ${a.zip}`].filter((p) => p && p.trim()).join(', ') : null;

/** Whether this address call is an admin's correction of someone else's order (else it is the caller's own address book). */
export const isAdminOrderAddress = (actor: Actor | null, input: { lab_order_id?: string | undefined; update_address_on_order?: boolean | undefined }) =>
  Boolean(actor?.user.isAdmin && input.lab_order_id && input.update_address_on_order);

/** The drop-ship's client address as the admin typed it, with its event; the client stays the order's own. */
async function setClientAddress(tx: Tx, order: OrderRow, actor: Actor, client: ClientAddressRow, input: AdminAddress & { recipient_name: string }) {
  const next = {
    recipient: input.recipient_name,
    street: input.street_address.trim(),
    street2: input.street_address_two?.trim() || null,
    city: input.city.trim(),
    state: input.state.trim(),
    zip: input.zip.trim(),
  };
  await tx.update(orderClientAddresses).set({ ...next, updatedAt: sql`now()` }).where(eq(orderClientAddresses.labOrderId, order.id));
  await tx.update(labOrders).set({ updatedAt: new Date() }).where(eq(labOrders.id, order.id));
  await recordEvent(tx, order.id, actor.user.guid, 'client_address', { from: clientAddressLine(client), to: clientAddressLine({ ...client, ...next }) });
}

/**
 * Sets the order's shipping address as the admin typed it (the client's on a drop-ship), with the event (who, when, from, to),
 * in one transaction; refused while the order is being paid, after it shipped or was cancelled.
 */
export async function setOrderAddressAsAdmin(deps: ServerDeps, actor: Actor, orderGuid: string, input: AdminAddress): Promise<void> {
  if (!actor.user.isAdmin) throw forbidden();
  const recipient = input.recipient_name?.trim() ?? '';
  if (!recipient) throw validationError('Enter the recipient’s name.');
  const { order } = await visibleOrder(deps, actor, orderGuid);
  await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(labOrders).where(eq(labOrders.id, order.id)).for('update');
    if (!locked) throw notFound('This order does not exist.');
    const fixed = FIXED_STATUSES[locked.status];
    if (fixed) throw validationError(fixed);
    await refuseWhileBeingPaid(tx, locked.id);
    // A drop-ship's parcel goes to the client's address (the order's own): that is the one to correct.
    const client = locked.localPickup ? null : await clientAddressOf(tx, locked.id);
    if (client) {
      await setClientAddress(tx, locked, actor, client, { ...input, recipient_name: recipient });
      return;
    }
    const before = locked.shippingAddress ?? null;
    const next: ShippingAddressSnapshot = {
      // A new id: this address is in no one's book (checkout only asks that the order has one).
      guid: randomUUID(),
      recipient,
      street: input.street_address.trim(),
      street2: input.street_address_two?.trim() || null,
      city: input.city.trim(),
      state: input.state.trim(),
      zip: input.zip.trim(),
      // The form has no phone (docs/orders.md §3): the carrier's number stays as it was.
      phone: before?.phone ?? null,
    };
    await tx.update(labOrders).set({ shippingAddress: next, updatedAt: new Date() }).where(eq(labOrders.id, locked.id));
    // An open order's figures follow its choices (order-figures.ts); a paid one's are what was charged.
    if (locked.status === 'open') await refreshFigures(tx, locked.id);
    await recordEvent(tx, locked.id, actor.user.guid, 'shipping_address', { from: addressLine(before), to: addressLine(next) });
  });
}
