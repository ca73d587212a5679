import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { labOrders } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, unauthorized, validationError } from '../http/errors.ts';
import { toDollars } from '../../src/domain/money.ts';
import { fullName, type Actor, type UserRow } from './auth-service.ts';
import { visibleOrder, type OrderRow } from './order-access.ts';
import { listMeta, orderSummary } from './lab-orders-service.ts';
import { lineItemsOfOrder } from './line-item-answer.ts';
import { firstPhotosOf } from './photo-service.ts';
import { zipLink } from './order-zip.ts';
import { checkoutAttributes } from './checkout-answer.ts';
import { vendorSendStatus } from './vendor-send.ts';
import { albumsOf } from './album-service.ts';
import { eventsOf, refundsOf } from './order-events.ts';
import { listFields } from './order-list-fields.ts';
import { cancelUntil } from './order-money.ts';

/** New lab orders and one order with its photos (docs/orders.md §2 New order, §7; docs/upload-and-sync.md §1). */

export const ORDER_NAME_TAKEN = 'Order Name already taken. Please create a different Order Name.';

const sameName = (userGuid: string, orderName: string) =>
  and(eq(labOrders.userGuid, userGuid), sql`lower(${labOrders.orderName}) = lower(${orderName.trim()})`);

/** check_unique_order_name: succeeds when the caller already has an order of that name (taken). */
export async function assertOrderNameTaken(deps: Pick<ServerDeps, 'db'>, actor: Actor | null, orderName: string): Promise<void> {
  if (!actor) throw unauthorized();
  const [taken] = await deps.db.select({ id: labOrders.id }).from(labOrders).where(sameName(actor.user.guid, orderName)).limit(1);
  if (!taken) throw notFound('No order of yours has this name.');
}

/** A new open order of the caller; a name they already use (any letter case) is refused. */
/** `guid`: the new order's id (the request's changeGuid, so a retried request creates it once). */
export async function createLabOrder(deps: Pick<ServerDeps, 'db' | 'storage' | 'now' | 'config'>, actor: Actor | null, input: { order_name: string }, guid: string = randomUUID()) {
  if (!actor) throw unauthorized();
  // The unique index (user, lower(name)) decides, so two tabs creating the same name at once
  // cannot both succeed.
  const [order] = await deps.db.insert(labOrders).values({ guid, userGuid: actor.user.guid, orderName: input.order_name.trim() }).onConflictDoNothing().returning();
  if (!order) {
    // Created by an earlier try of this request (whose answer a crash lost): that order.
    const [made] = await deps.db.select().from(labOrders).where(and(eq(labOrders.guid, guid), eq(labOrders.userGuid, actor.user.guid)));
    if (made) return { data: await orderResource(deps, actor, made, actor.user, { images: [], photo_count: 0 }, []) };
    throw validationError(ORDER_NAME_TAKEN);
  }
  return { data: await orderResource(deps, actor, order, actor.user, { images: [], photo_count: 0 }, []) };
}

/** GET /lab_orders/{guid}: the order with its first page of photos; lab_order_photographs pages the rest. */
export async function getLabOrder(deps: ServerDeps, actor: Actor | null, guid: string) {
  if (!actor) throw unauthorized();
  const { order, photographer } = await visibleOrder(deps, actor, guid);
  const [photos, lines, albumLineItems] = await Promise.all([firstPhotosOf(deps, order.id), lineItemsOfOrder(deps, order.id), albumsOf(deps, order.id)]);
  const resource = await orderResource(deps, actor, order, photographer, { images: photos.data, photo_count: photos.total }, lines);
  // The detail offers CANCEL ORDER while paid and before this (the server decides again on the call).
  const until = cancelUntil(order, deps.config.cancelWindowMinutes);
  return {
    data: { ...resource, attributes: { ...resource.attributes, cancel_until: until?.toISOString() ?? null, album_line_items: albumLineItems } },
    included: [] as never[],
    meta: listMeta(actor),
  };
}

/** What only an admin sees of an order (docs/api.md §6, order detail). */
async function adminAttributes(deps: Pick<ServerDeps, 'db' | 'storage' | 'now' | 'config'>, order: OrderRow, photographer: UserRow) {
  const [events, refunds] = await Promise.all([eventsOf(deps.db, order.id), refundsOf(deps.db, order.id)]);
  return {
    internal_notes: order.internalNotes,
    events,
    refunds,
    refund_amount: toDollars(order.refundCents),
    download_all_link: await zipLink(deps, order),
    zip_requested_at: order.zipRequestedAt?.toISOString() ?? null,
    last_sent_to_vendor_at: order.lastSentToVendorAt?.toISOString() ?? null,
    vendor_send_status: vendorSendStatus(events),
    // SEND TO VENDOR is offered only when the lab has a vendor to send to (docs/orders.md §6: "when vendor set").
    vendor_configured: Boolean(deps.config.vendorApiUrl),
    photographer: { guid: photographer.guid, name: fullName(photographer), business: photographer.businessName, email: photographer.email },
  };
}

/** An order as the API answers it (docs/orders.md §3), with its photos and line items. */
async function orderResource<P, L>(
  deps: Pick<ServerDeps, 'db' | 'storage' | 'now' | 'config'>,
  actor: Actor,
  order: OrderRow,
  photographer: UserRow,
  photos: { images: P[]; photo_count: number },
  lines: L[],
) {
  const summary = orderSummary(order, photographer);
  const listRow = { ...order, hasNotes: Boolean(order.notes), hasAdminNotes: Boolean(order.internalNotes), coverKey: order.coverKey };
  return {
    ...summary,
    attributes: {
      ...summary.attributes,
      ...(await listFields(deps, actor, listRow)),
      ...(await checkoutAttributes(deps.db, order)),
      notes: order.notes,
      shipped_at: order.shippedAt?.toISOString() ?? null,
      cancelled_at: order.cancelledAt?.toISOString() ?? null,
      refund_amount: toDollars(order.refundCents),
      ...(actor.user.isAdmin ? await adminAttributes(deps, order, photographer) : {}),
      subtotal: toDollars(order.subtotalCents),
      discount: toDollars(order.discountCents),
      credit_applied: toDollars(order.creditCents),
      shipping_total: toDollars(order.shippingCents),
      total: toDollars(order.totalCents),
      photo_count: photos.photo_count,
      images: photos.images,
      line_items: lines,
    },
  };
}

/** Adding a photo changes the order: the list shows it by its last change. */
export async function touchOrder(deps: Pick<ServerDeps, 'db'>, orderId: number): Promise<void> {
  await deps.db.update(labOrders).set({ updatedAt: sql`now()` }).where(eq(labOrders.id, orderId));
}
