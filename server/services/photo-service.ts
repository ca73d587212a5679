import { and, asc, count, eq } from 'drizzle-orm';
import { photographs } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, unauthorized } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { visibleOrder } from './order-access.ts';
import { DEFAULT_PHOTOS_PER_PAGE } from '../../src/contract/photos.ts';

/** The photos of an order as the API answers them (docs/api.md §7). */

export type PhotoRow = typeof photographs.$inferSelect;

// Photo addresses last this long: an afternoon in the order builder without a reload.
const PHOTO_URL_TTL_S = 6 * 60 * 60;
// ... and are signed as of the start of the current hour, so every answer within the hour hands
// out the same address: the browser and the service worker's thumbnail cache find a photo again
// instead of fetching it under a new signature.
const PHOTO_URL_WINDOW_S = 60 * 60;

/** A signed GET address of a stored image of an order, the same for every call within the hour. */
/** Which signing window it is now: photo links signed within one are the same (signPhotoKey). */
export function photoSigningWindow(deps: Pick<ServerDeps, 'now'>): number {
  return Math.floor((deps.now?.() ?? new Date()).getTime() / (PHOTO_URL_WINDOW_S * 1000));
}

export function signPhotoKey(deps: Pick<ServerDeps, 'storage' | 'now'>, key: string): Promise<string> {
  return signInWindow(deps, key, { expiresInSeconds: PHOTO_URL_TTL_S });
}

/**
 * A signed GET address as of the start of the current signing window, lasting at least
 * `expiresInSeconds` from any moment of it: every call within the window hands out the same
 * address, so an answer kept in memory for the window (the orders list's pages) is the answer.
 */
export function signInWindow(deps: Pick<ServerDeps, 'storage' | 'now'>, key: string, opts: { expiresInSeconds: number; downloadName?: string }): Promise<string> {
  const now = (deps.now?.() ?? new Date()).getTime();
  const signedAt = new Date(now - (now % (PHOTO_URL_WINDOW_S * 1000)));
  return deps.storage.presignGet(key, { ...opts, expiresInSeconds: opts.expiresInSeconds + PHOTO_URL_WINDOW_S, signedAt });
}

/** A photo with signed GET addresses of its original and, once made, its preview and thumbnail. */
export async function photoAnswer(deps: Pick<ServerDeps, 'storage' | 'now'>, photo: PhotoRow) {
  const sign = (key: string) => signPhotoKey(deps, key);
  const ready = Boolean(photo.previewKey && photo.thumbnailKey);
  const original = await sign(photo.key);
  return {
    guid: photo.guid,
    photo_file_name: photo.fileName,
    photo_url: ready && photo.previewKey ? await sign(photo.previewKey) : original,
    presigned_photo_url: original,
    smallest_photo: ready && photo.thumbnailKey ? await sign(photo.thumbnailKey) : original,
    width: photo.width,
    height: photo.height,
    size: photo.size,
    checksum: photo.checksum,
    content_type: photo.contentType as 'image/jpeg' | 'image/png',
    derivatives_ready: ready,
    // Set when the lab found the image data damaged after accepting it: why, for the photographer.
    unreadable_reason: photo.unreadableReason,
    created_at: photo.createdAt.toISOString(),
  };
}

export type PhotoAnswer = Awaited<ReturnType<typeof photoAnswer>>;

async function photoPage(deps: ServerDeps, orderId: number, page: number, perPage: number) {
  const [total] = await deps.db.select({ n: count() }).from(photographs).where(eq(photographs.labOrderId, orderId));
  const rows = await deps.db
    .select()
    .from(photographs)
    .where(eq(photographs.labOrderId, orderId))
    .orderBy(asc(photographs.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return { data: await Promise.all(rows.map((row) => photoAnswer(deps, row))), total: total?.n ?? 0 };
}

/** The photos GET /lab_orders/{guid} carries: the first page, and how many there are in all. */
export const firstPhotosOf = (deps: ServerDeps, orderId: number) => photoPage(deps, orderId, 1, DEFAULT_PHOTOS_PER_PAGE);

/** lab_order_photographs: the order's photos in upload order, a page at a time. */
export async function listPhotographs(deps: ServerDeps, actor: Actor | null, guid: string, paging: { page: number; per_page: number }) {
  if (!actor) throw unauthorized();
  const { order } = await visibleOrder(deps, actor, guid);
  const { data, total } = await photoPage(deps, order.id, paging.page, paging.per_page);
  return { data, meta: { total, page: paging.page, per_page: paging.per_page } };
}

/** One photo of an order the caller may see. */
export async function getPhotograph(deps: ServerDeps, actor: Actor | null, guid: string, photoGuid: string) {
  if (!actor) throw unauthorized();
  const { order } = await visibleOrder(deps, actor, guid);
  const [photo] = await deps.db
    .select()
    .from(photographs)
    .where(and(eq(photographs.labOrderId, order.id), eq(photographs.guid, photoGuid)));
  if (!photo) throw notFound('This photo does not exist.');
  return { data: await photoAnswer(deps, photo) };
}
