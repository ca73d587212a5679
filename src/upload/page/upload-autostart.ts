/**
 * Resumes queued uploads when the signed-in app opens (after a reload, a crash, a closed
 * browser). Cheap on purpose: one count in IndexedDB; the queue's code, and the worker, load only
 * when something is waiting to be sent.
 */
import { labDb, type LabDatabase } from '../../offline/db.ts';

export async function resumeQueuedUploads(owner: string, db: LabDatabase = labDb): Promise<boolean> {
  if (!owner) return false;
  const waiting = await db.uploads
    .where('owner')
    .equals(owner)
    .filter((u) => u.state !== 'failed' && !u.paused)
    .count();
  if (!waiting) return false;
  const { startUploadQueue } = await import('./uploads.ts');
  startUploadQueue(owner);
  return true;
}
