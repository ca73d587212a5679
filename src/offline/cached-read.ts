import { ApiError } from '../api/errors.ts';
import { clearUserCaches } from './cache-names.ts';
import { labDb, type LabDatabase } from './db.ts';

/** The owner of data that is the lab's and the same for everyone (the catalogue). */
export const SHARED_OWNER = 'lab';

export interface ReadResult<T> {
  data: T;
  /** When the shown data was fetched: null for a live answer, a time for an offline copy. */
  cachedAt: number | null;
}

/**
 * Network first: a live answer is kept in IndexedDB for its owner; without a connection the last
 * kept answer is returned instead, so lists open offline. Other failures are not hidden.
 */
export async function readThrough<T>(owner: string, what: string, fetch: () => Promise<T>, db: LabDatabase = labDb): Promise<ReadResult<T>> {
  const key = `${owner}|${what}`;
  try {
    const data = await fetch();
    await keepRead(owner, what, data, db);
    return { data, cachedAt: null };
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'network') {
      const kept = await db.cachedReads.get(key);
      if (kept) return { data: kept.payload as T, cachedAt: kept.savedAt };
    }
    throw err;
  }
}

/** Replaces a kept read with more of it (a list with further pages loaded), for offline use. */
export async function keepRead(owner: string, what: string, data: unknown, db: LabDatabase = labDb): Promise<void> {
  await db.cachedReads.put({ key: `${owner}|${what}`, owner, savedAt: Date.now(), payload: data });
}

/**
 * At sign-out: forget every user's kept reads and cached thumbnails, so the next person on this
 * device sees nothing of them. The lab's own catalogue stays. Unsent changes and queued uploads
 * stay too: they are sent when their owner signs in again.
 */
export async function clearUserData(db: LabDatabase = labDb): Promise<void> {
  await db.cachedReads.where('owner').notEqual(SHARED_OWNER).delete();
  await clearUserCaches();
}
