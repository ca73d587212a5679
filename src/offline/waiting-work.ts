import { liveQuery } from 'dexie';
import { labDb, type LabDatabase } from './db.ts';

export interface WaitingWork {
  changes: number;
  uploads: number;
}

/** Follows how many changes and uploads of one user wait to be sent; returns the unsubscribe. */
export function watchWaitingWork(owner: string, onChange: (work: WaitingWork) => void, db: LabDatabase = labDb): () => void {
  // One read transaction for both counts: every write of the upload queue counts again.
  const subscription = liveQuery(() =>
    db.transaction('r', [db.outbox, db.uploads], async () => ({
      changes: await db.outbox.where('owner').equals(owner).count(),
      uploads: await db.uploads.where('owner').equals(owner).count(),
    })),
  ).subscribe({
    next: onChange,
    error: (err: unknown) => console.error('could not count waiting work', err),
  });
  return () => subscription.unsubscribe();
}
