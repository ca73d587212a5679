/**
 * A chosen photo's check in the worker, before anything is sent: content by magic bytes (not a
 * photo: REJECTED with the reason), the thumbnail (shown at once), then the streamed SHA-256 the
 * lab's create_presigned_url needs. The stored Blob is handed over; no byte is read here.
 */
import type { UploadEntry, LabDatabase } from './db.ts';
import type { ProgressTracker } from './upload-progress.ts';
import { failUpload, nextToCheck, rejectUpload } from './upload-store.ts';
import type { UploadWorkerPort } from './upload-worker-bridge.ts';

/** After the worker itself failed, the next check waits 10 s (a stuck worker must not spin). */
export const PREPARE_RETRY_MS = 10_000;

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

/**
 * Checks the owner's queued photos one after another, as fast as the worker goes, apart from the
 * scheduler's looks at the queue: a photo checked is sent at the scheduler's next look, and the
 * next photo's check starts at once (when each check waited for a look, checks, not the link,
 * set the pace: about 300 ms a photo, README Performance). One at a time, so the worker holds
 * one photo's read at most.
 */
export class CheckLoop {
  #running = false;
  #again = false;
  #stopped = false;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly deps: { db: LabDatabase; worker: UploadWorkerPort; owner: string; progress: ProgressTracker },
    /** A photo became ready (or failed, or was rejected): the scheduler looks again. */
    private readonly onChecked: () => void,
  ) {}

  /** Checking, or waiting out a worker failure. */
  get busy(): boolean {
    return this.#running || this.#retryTimer !== null;
  }

  /** New photos may be waiting for their check. */
  wake(): void {
    if (this.#stopped || this.#retryTimer !== null) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    void this.#run();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }

  async #run(): Promise<void> {
    const { db, worker, owner, progress } = this.deps;
    this.#running = true;
    try {
      do {
        this.#again = false;
        for (;;) {
          const next = this.#stopped ? undefined : await nextToCheck(db, owner);
          if (!next || this.#stopped) break;
          const outcome = await prepareUpload(db, worker, next, progress);
          this.onChecked();
          if (outcome === 'worker-failed') {
            this.#retryTimer = setTimeout(() => {
              this.#retryTimer = null;
              this.wake();
            }, PREPARE_RETRY_MS);
            return;
          }
        }
      } while (this.#again && !this.#stopped);
    } catch (err) {
      console.error('upload check loop', err);
    } finally {
      this.#running = false;
    }
  }
}
