/**
 * An order's photos for its upload screen: the queue, the accepted photos and the rejections of
 * one owner's order, read from IndexedDB in bounded pages (a 1,000-photo order never loads 1,000
 * rows or thumbnails at once), and the server's list merged into the photos table.
 */
import { getLabOrderPhotographs } from '../../api/lab-order-upload.ts';
import { Dexie } from 'dexie';
import { sortByPhotoNumber } from '../../client-rules/photo-order.ts';
import type { UploadState } from '../shared/upload-state.ts';
import { labDb, type LabDatabase } from '../../offline/db.ts';
import { keepServerPhotos } from '../shared/upload-store.ts';

export interface OrderUploadCounts {
  /** Accepted photos in the order. */
  accepted: number;
  /** Still in the queue: being checked, sent, or confirmed (failed and paused included). */
  pending: number;
  /** Pending and not failed or paused: the queue is working on these. */
  active: number;
  /** Pending whose bytes are all sent: the server is checking them (paused ones included). */
  processing: number;
  failed: number;
  paused: number;
  rejected: number;
}

/** Counted on indexes: no row (nor a photo's thumbnail) is read to count it. */
const ofOwnerOrder = (owner: string, orderGuid: string) => [owner, orderGuid] as [string, string];

export async function orderUploadCounts(owner: string, orderGuid: string, db: LabDatabase = labDb): Promise<OrderUploadCounts> {
  const inState = (state: UploadState) => db.uploads.where('[owner+orderGuid+state]').equals([owner, orderGuid, state]).count();
  // One read transaction for the nine counts, not one each: the screen counts again at every
  // write of the queue, and opening a transaction is the costly part of a count (page profile,
  // docs/performance-notes.md §6).
  const counts = await db.transaction('r', [db.uploads, db.photos, db.rejections], () => Promise.all([
    inState('queued'),
    inState('ready'),
    inState('uploading'),
    inState('completing'),
    inState('confirming'),
    inState('failed'),
    db.uploads.where('[owner+orderGuid+paused]').equals([owner, orderGuid, 1]).count(),
    db.photos.where('[owner+orderGuid]').equals(ofOwnerOrder(owner, orderGuid)).count(),
    db.rejections.where('[owner+orderGuid]').equals(ofOwnerOrder(owner, orderGuid)).count(),
  ]));
  const [queued, ready, uploading, completing, confirming, failed, paused, accepted, rejected] = counts;
  const pending = queued + ready + uploading + completing + confirming + failed;
  // Failed photos are never paused (see setPaused), so the two counts do not overlap.
  return { accepted, pending, active: pending - failed - paused, processing: completing + confirming, failed, paused, rejected };
}

/** The whole of one owner's order on an [owner+orderGuid+…] index. */
const ownOrder = (owner: string, orderGuid: string) => [
  [owner, orderGuid, Dexie.minKey],
  [owner, orderGuid, Dexie.maxKey],
] as const;

/** The first `limit` queued files of the order, in sending order. */
export function orderQueue(owner: string, orderGuid: string, limit: number, db: LabDatabase = labDb) {
  const [from, to] = ownOrder(owner, orderGuid);
  return db.uploads.where('[owner+orderGuid+seq]').between(from, to).limit(limit).toArray();
}

/**
 * The first `limit` accepted photos in the builder's order (docs/orders.md: by the number in the file
 * name). The order can only be known from every name, so every row is read (thumbnails are Blob
 * handles: no bytes are read here), as the builder reads them; only `limit` of them are shown.
 */
export async function orderPhotos(owner: string, orderGuid: string, limit: number, db: LabDatabase = labDb) {
  const [from, to] = ownOrder(owner, orderGuid);
  const rows = await db.photos.where('[owner+orderGuid+createdAt]').between(from, to).toArray();
  return sortByPhotoNumber(rows, (p) => p.name).slice(0, limit);
}

export const orderRejections = (owner: string, orderGuid: string, db: LabDatabase = labDb) =>
  db.rejections.where('[owner+orderGuid]').equals(ofOwnerOrder(owner, orderGuid)).sortBy('createdAt');

/** Ids of the order's queued files (for PAUSE ALL / RESUME ALL). */
export const orderQueueIds = (owner: string, orderGuid: string, db: LabDatabase = labDb) =>
  db.uploads.where('[owner+orderGuid]').equals(ofOwnerOrder(owner, orderGuid)).primaryKeys();

/** Pages of the server's list, merged into the photos table; 100 a page keeps each answer small. */
const PHOTOS_PER_PAGE = 100;

/**
 * Merges the server's list of the order's photos into the photos table; answers whether the lab
 * is still working on some of them (no preview yet, and not found unreadable), so a screen knows
 * to ask again.
 */
export async function refreshOrderPhotos(owner: string, orderGuid: string, signal?: AbortSignal, db: LabDatabase = labDb): Promise<boolean> {
  let processing = false;
  for (let page = 1; ; page++) {
    const answer = await getLabOrderPhotographs(orderGuid, page, PHOTOS_PER_PAGE, signal);
    await keepServerPhotos(db, owner, orderGuid, answer.data);
    processing ||= answer.data.some((p) => !p.derivatives_ready && !p.unreadable_reason);
    if (answer.data.length === 0 || page * answer.meta.per_page >= answer.meta.total) return processing;
  }
}
