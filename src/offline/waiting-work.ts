import { liveQuery } from 'dexie';
import { labDb, type LabDatabase } from './db.ts';

/**
 * The changes of one user waiting to be sent (the outbox's rows), of one order when `orderGuid`
 * is given: the one count the status bar and the cart both show. Call inside a transaction that
 * reads the outbox, or alone.
 */
export async function countWaitingChanges(db: LabDatabase, owner: string, orderGuid?: string): Promise<number> {
  const mine = db.outbox.where('owner').equals(owner);
  if (orderGuid === undefined) return mine.count();
  return mine.filter((row) => (row.payload as { orderGuid?: unknown } | null)?.orderGuid === orderGuid).count();
}

export interface WaitingWork {
  changes: number;
  uploads: number;
}

/** Follows how many changes and uploads of one user wait to be sent; returns the unsubscribe. */
export function watchWaitingWork(owner: string, onChange: (work: WaitingWork) => void, db: LabDatabase = labDb): () => void {
  // One read transaction for both counts: every write of the upload queue counts again.
  const subscription = liveQuery(() =>
    db.transaction('r', [db.outbox, db.uploads], async () => ({
      changes: await countWaitingChanges(db, owner),
      uploads: await db.uploads.where('owner').equals(owner).count(),
    })),
  ).subscribe({
    next: onChange,
    error: (err: unknown) => console.error('could not count waiting work', err),
  });
  return () => subscription.unsubscribe();
}
