import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { albumPhotos, albums, labOrders, lineItems, orderEvents, photographs } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { fullOrderAnswer } from './line-item-answer.ts';
import { ProductPricer } from './line-item-product.ts';
import { ownOrder, visibleOrder } from './order-access.ts';
import { removeUnshared } from './order-delete.ts';
import { recordEvent } from './order-events.ts';
import { refreshFigures } from './order-figures.ts';
import { lockOpenOrder } from './order-lock.ts';
import { ORDER_NAME_TAKEN } from './order-service.ts';
import { requireAdmin } from './admin-guard.ts';

/** Reorder (the photographer) and merge (the lab) (docs/lab-rules.md §2). */

export const MERGE_SAME_ORDER = 'Choose two different orders to merge.';
export const MERGE_NOT_OPEN = 'Only open orders can be merged: one of these is no longer open.';
export const MERGE_OTHER_PHOTOGRAPHER = 'Only orders of the same photographer can be merged.';

/**
 * POST /lab_orders/{id}/reorder: a new open order of the caller with the same photos (the new
 * photo rows name the same stored objects: no byte is copied) and line items, priced at today's
 * catalogue; a product no longer offered is refused (422) and nothing is made.
 */
/** `newGuid`: the new order's id (the request's changeGuid, so a retried request makes it once). */
export async function reorder(deps: ServerDeps, actor: Actor | null, guid: string, input: { order_name: string }, newGuid: string = randomUUID()) {
  const source = await ownOrder(deps, actor, guid);
  const me = actor as Actor;
  const items = await deps.db.select().from(lineItems).where(eq(lineItems.labOrderId, source.id)).orderBy(asc(lineItems.id));
  const pricer = new ProductPricer(deps.db);
  await pricer.load(items.map((i) => i.printSizeGuid));
  const priced = await Promise.all(
    items.map((i) => pricer.price({ printSizeGuid: i.printSizeGuid, finishingServiceGuid: i.finishingServiceGuid, detailGuids: i.finishingDetailGuids, printBorder: i.printBorder })),
  );
  const created = await deps.db.transaction(async (tx) => {
    const [order] = await tx
      .insert(labOrders)
      .values({ guid: newGuid, userGuid: me.user.guid, orderName: input.order_name.trim(), colorCorrection: source.colorCorrection, notes: source.notes })
      .onConflictDoNothing()
      .returning();
    if (!order) {
      // Made, whole, by an earlier try of this request (whose answer a crash lost): that order.
      const [made] = await tx.select().from(labOrders).where(and(eq(labOrders.guid, newGuid), eq(labOrders.userGuid, me.user.guid)));
      if (made) return made;
      throw validationError(ORDER_NAME_TAKEN);
    }
    const photos = await tx.select().from(photographs).where(eq(photographs.labOrderId, source.id)).orderBy(asc(photographs.id));
    const newPhotoId = new Map<number, number>();
    if (photos.length) {
      const copies = await tx
        .insert(photographs)
        .values(
          photos.map((p) => ({
            labOrderId: order.id,
            fileName: p.fileName,
            key: p.key,
            size: p.size,
            checksum: p.checksum,
            contentType: p.contentType,
            width: p.width,
            height: p.height,
            previewKey: p.previewKey,
            thumbnailKey: p.thumbnailKey,
            unreadableReason: p.unreadableReason,
          })),
        )
        .returning({ id: photographs.id, checksum: photographs.checksum });
      const byChecksum = new Map(copies.map((c) => [c.checksum, c.id]));
      for (const p of photos) newPhotoId.set(p.id, byChecksum.get(p.checksum) ?? 0);
    }
    if (items.length) {
      await tx.insert(lineItems).values(
        items.map((i, n) => {
          const product = priced[n];
          if (!product) throw new Error('line item not priced');
          return {
            guid: randomUUID(),
            labOrderId: order.id,
            photographId: newPhotoId.get(i.photographId) ?? 0,
            printSizeGuid: product.printSizeGuid,
            finishingServiceGuid: product.finishingServiceGuid,
            finishingDetailGuids: product.detailGuids,
            printBorder: i.printBorder,
            notes: i.notes,
            cropX: i.cropX,
            cropY: i.cropY,
            cropW: i.cropW,
            cropH: i.cropH,
            aspect: i.aspect,
            quantity: i.quantity,
            printCents: product.printCents,
            finishingCents: product.finishingCents,
            // The cropped image is made afresh for the new line item (housekeeping asks for it):
            // a shared one would be removed when either crop changes.
            croppedKey: null,
          };
        }),
      );
    }
    await recordEvent(tx, order.id, me.user.guid, 'reorder', { detail: `Reorder of ${source.orderName}`, from: source.guid });
    return refreshFigures(tx, order.id);
  });
  return fullOrderAnswer(deps, me, created, me.user);
}

/**
 * POST /lab-orders/merge: the second order's line items, albums and photos move into the first (a photo
 * in both, by checksum, is kept once and the line items point to the kept one), the second is
 * deleted; one transaction. Both open, of one photographer.
 */
export async function mergeOrders(deps: ServerDeps, actor: Actor | null, guids: [string, string]) {
  const admin = requireAdmin(actor);
  const [firstGuid, secondGuid] = guids;
  if (firstGuid === secondGuid) throw validationError(MERGE_SAME_ORDER);
  const first = await visibleOrder(deps, admin, firstGuid);
  const second = await visibleOrder(deps, admin, secondGuid).catch(async (err: unknown) => {
    // Merged into the first already: by an earlier try of this request whose answer a crash lost,
    // or asked again from a stale screen. Done is done: the merged order.
    if (await mergedInto(deps, first.order.id, secondGuid)) return null;
    throw err;
  });
  if (!second) return fullOrderAnswer(deps, admin, (await visibleOrder(deps, admin, firstGuid)).order, first.photographer);
  if (first.order.userGuid !== second.order.userGuid) throw validationError(MERGE_OTHER_PHOTOGRAPHER);
  const { merged, dropped } = await deps.db.transaction(async (tx) => {
    // Locked in id order, as every transaction locking two orders must, so two merges cannot deadlock.
    for (const id of [first.order.id, second.order.id].sort((a, b) => a - b)) await lockOpenOrder(tx, id, () => validationError(MERGE_NOT_OPEN));
    const kept = await tx.select({ id: photographs.id, checksum: photographs.checksum }).from(photographs).where(eq(photographs.labOrderId, first.order.id));
    const keptByChecksum = new Map(kept.map((p) => [p.checksum, p.id]));
    const moving = await tx.select().from(photographs).where(eq(photographs.labOrderId, second.order.id));
    const twins = moving.filter((p) => keptByChecksum.has(p.checksum));
    for (const twin of twins) {
      await tx
        .update(lineItems)
        .set({ photographId: keptByChecksum.get(twin.checksum) ?? 0 })
        .where(and(eq(lineItems.labOrderId, second.order.id), eq(lineItems.photographId, twin.id)));
      // The second order's albums keep their photo too (album-service.ts).
      await tx.update(albumPhotos).set({ photographId: keptByChecksum.get(twin.checksum) ?? 0 }).where(eq(albumPhotos.photographId, twin.id));
    }
    if (twins.length) await tx.delete(photographs).where(inArray(photographs.id, twins.map((p) => p.id)));
    await tx.update(photographs).set({ labOrderId: first.order.id }).where(eq(photographs.labOrderId, second.order.id));
    await tx.update(lineItems).set({ labOrderId: first.order.id }).where(eq(lineItems.labOrderId, second.order.id));
    await tx.update(albums).set({ labOrderId: first.order.id }).where(eq(albums.labOrderId, second.order.id));
    await tx.delete(labOrders).where(eq(labOrders.id, second.order.id));
    await recordEvent(tx, first.order.id, admin.user.guid, 'merge', { from: second.order.guid, detail: `Merged ${second.order.orderName} into this order` });
    return { merged: await refreshFigures(tx, first.order.id), dropped: twins };
  });
  // The twins' own stored objects, unless another photo (a reorder) still names them.
  await removeUnshared(deps, dropped.map((p) => ({ key: p.key, preview: p.previewKey, thumb: p.thumbnailKey })), []);
  return fullOrderAnswer(deps, admin, merged, first.photographer);
}

/** Whether the order with `secondGuid` was merged into this one (its merge event names it). */
async function mergedInto(deps: ServerDeps, orderId: number, secondGuid: string): Promise<boolean> {
  const [event] = await deps.db
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .where(and(eq(orderEvents.labOrderId, orderId), eq(orderEvents.kind, 'merge'), eq(orderEvents.fromValue, secondGuid)));
  return Boolean(event);
}
