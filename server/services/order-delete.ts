import { eq, inArray } from 'drizzle-orm';
import { labOrders, lineItems, photographs } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { visibleOrder } from './order-access.ts';
import { lockOpenOrder } from './order-lock.ts';

/** DELETE /lab_orders/{id}: an open order, by its photographer or an admin (docs/orders.md §2, the trash icon). */

export const ONLY_OPEN_DELETED = 'Only open orders can be deleted.';

export async function deleteLabOrder(deps: Pick<ServerDeps, 'db' | 'storage'>, actor: Actor | null, guid: string): Promise<{ success: true }> {
  const { order } = await visibleOrder(deps, actor, guid);
  const stored = await deps.db.transaction(async (tx) => {
    // Waits for a checkout in flight; a paid order is the lab's record and stays.
    await lockOpenOrder(tx, order.id, () => validationError(ONLY_OPEN_DELETED));
    const photos = await tx.select({ key: photographs.key, preview: photographs.previewKey, thumb: photographs.thumbnailKey }).from(photographs).where(eq(photographs.labOrderId, order.id));
    const cropped = await tx.select({ key: lineItems.croppedKey }).from(lineItems).where(eq(lineItems.labOrderId, order.id));
    // Photos, line items and events go with the order (foreign keys on delete cascade).
    await tx.delete(labOrders).where(eq(labOrders.id, order.id));
    return { photos, cropped: cropped.flatMap((c) => (c.key ? [c.key] : [])) };
  });
  await removeUnshared(deps, stored.photos, stored.cropped);
  return { success: true };
}

/**
 * Removes the stored objects of deleted photos that no other photo names (a reorder's photos share
 * the originals and derivatives of the order they repeat: they go together, so the original's key
 * decides). After the commit: a failed removal leaves an orphan object, never a photo without bytes.
 */
export async function removeUnshared(deps: Pick<ServerDeps, 'db' | 'storage'>, photos: { key: string; preview: string | null; thumb: string | null }[], own: string[]): Promise<void> {
  const keys = photos.map((p) => p.key);
  const still = keys.length ? new Set((await deps.db.select({ key: photographs.key }).from(photographs).where(inArray(photographs.key, keys))).map((r) => r.key)) : new Set<string>();
  const gone = photos.filter((p) => !still.has(p.key)).flatMap((p) => [p.key, p.preview, p.thumb].filter((k): k is string => Boolean(k)));
  await Promise.allSettled([...gone, ...own].map((key) => deps.storage.remove(key)));
}
