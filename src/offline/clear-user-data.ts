import { clearUserCaches } from './cache-names.ts';
import { database, SHARED_OWNER } from './cached-read.ts';
import type { LabDatabase } from './db.ts';

// Its own module: only a sign-out loads it, so no screen carries it.

/**
 * At sign-out: forget what this device kept of its users, so the next person on it sees nothing
 * of them: kept reads and cached thumbnails, the photos already in orders (with the thumbnails
 * this device made of them: the lab keeps the photos and lists them again at the next sign-in)
 * and the lists of REJECTED files. The lab's own catalogue stays. Unsent changes and queued
 * uploads stay too, with their files, finished parts and thumbnails (and the line items those
 * changes are about): a photographer who signs out
 * by mistake on their own laptop loses nothing, and they are sent when their owner signs in again.
 * Every read of them is by owner, so another user signing in here never sees them.
 */
export async function clearUserData(given?: LabDatabase): Promise<void> {
  const db = await database(given);
  const tables = [db.cachedReads, db.photos, db.rejections, db.uploads, db.uploadThumbnails, db.orders, db.lineItems, db.syncCredentials];
  await db.transaction('rw', tables, async () => {
    await db.cachedReads.where('owner').notEqual(SHARED_OWNER).delete();
    await db.photos.clear();
    await db.rejections.clear();
    const queued = new Set(await db.uploads.toCollection().primaryKeys());
    await db.uploadThumbnails.filter((t) => !queued.has(t.id)).delete();
    // Line items with a change on its way or a refusal not yet seen stay with their orders, like
    // the outbox: they are the owner's unsent work. The lab lists the rest again at sign-in.
    const kept = await db.lineItems.filter((l) => l.pending || l.refusal !== null).toArray();
    const keptOrders = new Set(kept.map((l) => l.labOrderGuid));
    await db.lineItems.filter((l) => !l.pending && l.refusal === null).delete();
    await db.orders.filter((o) => !keptOrders.has(o.guid)).delete();
    // The worker's tokens: the session they belong to has ended, so nothing is sent until sign-in.
    await db.syncCredentials.clear();
  });
  await clearUserCaches();
}
