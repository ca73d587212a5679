/**
 * A chosen photo's check in the worker, before anything is sent: content by magic bytes (not a
 * photo: REJECTED with the reason), the thumbnail (shown at once), then the streamed SHA-256 the
 * lab's create_presigned_url needs. The stored Blob is handed over; no byte is read here.
 */
import type { UploadEntry, LabDatabase } from './db.ts';
import type { ProgressTracker } from './upload-progress.ts';
import { failUpload, rejectUpload } from './upload-store.ts';
import type { UploadWorkerPort } from './upload-worker-bridge.ts';

/** Thumbnails of 400 px on the long side: sharp in a grid at 2× density. */
export const THUMBNAIL_SIDE = 400;

/** Errors that mean the stored photo itself cannot be read (its bytes are gone from the disk). */
const UNREADABLE = new Set(['NotReadableError', 'NotFoundError']);

export type PrepareOutcome = 'ready' | 'rejected' | 'failed' | 'worker-failed';

export async function prepareUpload(db: LabDatabase, worker: UploadWorkerPort, entry: UploadEntry, progress: ProgressTracker): Promise<PrepareOutcome> {
  progress.set(entry.id, { phase: 'checking', total: entry.size });
  try {
    const stored = await db.uploadFiles.get(entry.id);
    if (!stored) {
      await failUpload(db, entry, `${entry.name} is no longer on this device. Remove it and choose it again.`);
      return 'failed';
    }
    const inspected = await worker.inspect(stored.file, entry.name, THUMBNAIL_SIDE);
    if (!inspected.ok) {
      await rejectUpload(db, entry, inspected.reason);
      progress.drop(entry.id, false);
      return 'rejected';
    }
    // The thumbnail shows at once; the checksum of a large photo takes a moment more.
    if (inspected.thumbnail) await db.uploadThumbnails.put({ id: entry.id, blob: inspected.thumbnail.blob, source: inspected.thumbnail.source });
    const checksum = await worker.sha256(stored.file);
    const ready: Partial<UploadEntry> = { state: 'ready', contentType: inspected.contentType, checksum };
    if (inspected.width !== null) ready.width = inspected.width;
    if (inspected.height !== null) ready.height = inspected.height;
    // Removed or failed meanwhile: only a row still waiting for its check moves on.
    await db.uploads.where('id').equals(entry.id).and((u) => u.state === 'queued').modify(ready);
    progress.set(entry.id, { phase: 'sending', sent: 0 });
    return 'ready';
  } catch (err) {
    console.error('upload check', err);
    if (err instanceof Error && UNREADABLE.has(err.name)) {
      await failUpload(db, entry, `${entry.name} could not be read on this device. Retry, or remove it and choose it again.`);
      return 'failed';
    }
    // The worker failed (its script could not load, it ran out of memory): not this photo's
    // fault. The photo stays queued; the scheduler tries again later.
    progress.drop(entry.id, false);
    return 'worker-failed';
  }
}
