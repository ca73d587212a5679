/**
 * A chosen photo's check in the worker, before anything is sent: content by magic bytes (not a
 * photo: REJECTED with the reason) and the thumbnail (shown at once), from the file's first bytes.
 * The SHA-256 is not part of it: it is computed while the photo is sent (upload-steps.ts), so the
 * first PUT leaves as soon as the photo's row and bytes are stored. It runs on the worker's own
 * IndexedDB connection; the page's side (src/upload/page/upload-prepare.ts) waits for the outcome.
 */
import type { LabDatabase, UploadEntry } from '../../offline/db.ts';
import type { PrepareOutcome, UploadWorkerApi } from '../shared/protocol.ts';
import { failUpload, rejectUpload } from '../shared/upload-store.ts';

/** Thumbnails of 400 px on the long side: sharp in a grid at 2× density. */
export const THUMBNAIL_SIDE = 400;

/** Errors that mean the stored photo itself cannot be read (its bytes are gone from the disk). */
const UNREADABLE = new Set(['NotReadableError', 'NotFoundError']);

/** The check itself: in the worker on its own IndexedDB connection, in unit tests in-process. */
export async function checkStoredPhoto(db: LabDatabase, worker: Pick<UploadWorkerApi, 'inspect'>, entry: UploadEntry): Promise<PrepareOutcome> {
  try {
    const stored = await db.uploadFiles.get(entry.id);
    if (!stored) {
      await failUpload(db, entry, `${entry.name} is no longer on this device. Remove it and choose it again.`);
      return 'failed';
    }
    const inspected = await worker.inspect(stored.file, entry.name, THUMBNAIL_SIDE);
    if (!inspected.ok) {
      await rejectUpload(db, entry, inspected.reason);
      return 'rejected';
    }
    if (inspected.thumbnail) await db.uploadThumbnails.put({ id: entry.id, blob: inspected.thumbnail.blob, source: inspected.thumbnail.source });
    const ready: Partial<UploadEntry> = { state: 'ready', contentType: inspected.contentType };
    if (inspected.width !== null) ready.width = inspected.width;
    if (inspected.height !== null) ready.height = inspected.height;
    // Removed or failed meanwhile: only a row still waiting for its check moves on.
    await db.uploads.where('id').equals(entry.id).and((u) => u.state === 'queued').modify(ready);
    return 'ready';
  } catch (err) {
    console.error('upload check', err);
    if (err instanceof Error && UNREADABLE.has(err.name)) {
      await failUpload(db, entry, `${entry.name} could not be read on this device. Retry, or remove it and choose it again.`);
      return 'failed';
    }
    // The worker failed (its script could not load, it ran out of memory): not this photo's
    // fault. The photo stays queued; the scheduler tries again later.
    return 'worker-failed';
  }
}
