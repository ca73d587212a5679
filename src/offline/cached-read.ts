import { ApiError } from '../api/errors.ts';
import { clearUserCaches } from './cache-names.ts';
import type { LabDatabase } from './db.ts';

/**
 * IndexedDB's code (Dexie, about 28 KB of brotli and a long task on a phone) is fetched only when
 * something is kept or read back, so a signed-in screen shows its live data without waiting for it.
 */
async function database(db: LabDatabase | undefined): Promise<LabDatabase> {
  return db ?? (await import('./db.ts')).labDb;
}

/** The owner of data that is the lab's and the same for everyone (the catalogue). */
export const SHARED_OWNER = 'lab';

export interface ReadResult<T> {
  data: T;
  /** When the shown data was fetched: null for a live answer, a time for an offline copy. */
  cachedAt: number | null;
}

/**
 * Network first: a live answer is returned at once and kept in IndexedDB for its owner on the
 * side (the screen does not wait for the disk; a failure to keep it is logged, and only means the
 * previous copy stays for offline use). Without a connection the last kept answer is returned
 * instead, so lists open offline. Other failures are not hidden.
 */
export async function readThrough<T>(owner: string, what: string, fetch: () => Promise<T>, db?: LabDatabase): Promise<ReadResult<T>> {
  const key = `${owner}|${what}`;
  let data: T;
  try {
    data = await fetch();
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'network') {
      const kept = await (await database(db)).cachedReads.get(key);
      if (kept) return { data: kept.payload as T, cachedAt: kept.savedAt };
    }
    throw err;
  }
  keepRead(owner, what, data, db).catch((err: unknown) => console.error(`could not keep ${what} for offline use`, err));
  return { data, cachedAt: null };
}

/** Replaces a kept read with more of it (a list with further pages loaded), for offline use. */
export async function keepRead(owner: string, what: string, data: unknown, db?: LabDatabase): Promise<void> {
  await (await database(db)).cachedReads.put({ key: `${owner}|${what}`, owner, savedAt: Date.now(), payload: data });
}

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
