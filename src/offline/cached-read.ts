import { ApiError } from '../api/errors.ts';
import type { LabDatabase } from './db.ts';

/**
 * IndexedDB's code (Dexie: one of the larger chunks, and a long task on a phone) is fetched only when
 * something is kept or read back, so a signed-in screen shows its live data without waiting for it.
 */
export async function database(db: LabDatabase | undefined): Promise<LabDatabase> {
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
