/**
 * The page's side of the chosen photos' checks: which photo the worker checks next, how many at
 * once, and what the photo's bar says meanwhile. The check itself runs in the worker
 * (src/upload/worker/upload-check.ts). No byte is read here.
 */
import type { UploadEntry, LabDatabase } from '../../offline/db.ts';
import type { PrepareOutcome } from '../shared/protocol.ts';
import type { ProgressTracker } from './upload-progress.ts';
import { nextToCheck } from '../shared/upload-store.ts';
import type { UploadWorkerPort } from './upload-worker-bridge.ts';

/** After the worker itself failed, the next check waits 10 s (a stuck worker must not spin). */
export const PREPARE_RETRY_MS = 10_000;

/**
 * The page's side of a photo's check: its bar says "Checking" meanwhile. The worker checks the
 * stored photo itself, so the page only waits for the outcome: the stored File, the thumbnail and
 * the row's writes never pass through its thread (per photo: a Blob read from IndexedDB, two
 * hand-overs to the worker, the thumbnail back and written, the row changed).
 */
export async function prepareUpload(db: LabDatabase, worker: UploadWorkerPort, entry: UploadEntry, progress: ProgressTracker): Promise<PrepareOutcome> {
  progress.set(entry.id, { phase: 'checking', total: entry.size });
  let outcome: PrepareOutcome;
  try {
    outcome = await worker.check(entry);
  } catch (err) {
    // The worker itself failed (it died, its script could not load): not this photo's fault.
    console.error('upload check', err);
    outcome = 'worker-failed';
  }
  if (outcome === 'ready') progress.set(entry.id, { phase: 'sending', sent: 0 });
  else if (outcome !== 'failed') progress.drop(entry.id, false);
  return outcome;
}

/**
 * Photos checked at once. Two, not one: a check is mostly waiting (the first bytes' read, the
 * thumbnail's decode when there is no EXIF preview, IndexedDB writes), and one at a time it set
 * the upload's pace on a fast link (docs/performance-notes.md §7). Two bound the worker's memory at two
 * thumbnails' decodes.
 */
export const CHECKS_AT_ONCE = 2;

/**
 * Checks the owner's queued photos as fast as the worker goes, apart from the scheduler's looks at
 * the queue: a photo checked is sent at the scheduler's next look, and the next photo's check
 * starts at once (when each check waited for a look, checks, not the link, set the pace:
 * docs/performance-notes.md §7). CHECKS_AT_ONCE lanes, each taking the earliest photo no
 * other lane has taken, so photos are still checked (and sent) in the order chosen.
 */
export class CheckLoop {
  #lanes = 0;
  #again = false;
  #stopped = false;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Photos a lane is checking now. */
  readonly #checking = new Set<string>();
  /** Lanes take their next photo one after another, so two never take the same one. */
  #picking: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: { db: LabDatabase; worker: UploadWorkerPort; owner: string; progress: ProgressTracker },
    /** A photo became ready (or failed, or was rejected): the scheduler looks again. */
    private readonly onChecked: () => void,
  ) {}

  /** Checking, or waiting out a worker failure. */
  get busy(): boolean {
    return this.#lanes > 0 || this.#retryTimer !== null;
  }

  /** New photos may be waiting for their check. */
  wake(): void {
    if (this.#stopped || this.#retryTimer !== null) return;
    this.#again = true;
    while (this.#lanes < CHECKS_AT_ONCE) void this.#lane();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }

  #take(): Promise<UploadEntry | undefined> {
    const { db, owner } = this.deps;
    const free = () => !this.#stopped && this.#retryTimer === null;
    const taken = this.#picking.then(async () => {
      while (free()) {
        const found = await nextToCheck(db, owner, (id) => this.#checking.has(id));
        if (!found) return undefined;
        // The index read may predate the end of another lane's check of this photo: take the
        // row as it is now, and only while it still waits for its check.
        const now = await db.uploads.get(found.id);
        if (!free()) return undefined;
        if (now?.state === 'queued' && !this.#checking.has(now.id)) {
          this.#checking.add(now.id);
          return now;
        }
      }
      return undefined;
    });
    this.#picking = taken.catch(() => undefined);
    return taken;
  }

  async #lane(): Promise<void> {
    const { db, worker, progress } = this.deps;
    this.#lanes += 1;
    try {
      do {
        this.#again = false;
        for (;;) {
          const next = await this.#take();
          if (!next) break;
          let outcome: PrepareOutcome;
          try {
            outcome = await prepareUpload(db, worker, next, progress);
          } finally {
            this.#checking.delete(next.id);
          }
          // The wait starts before the scheduler hears of it, or its look would start a check again.
          if (outcome === 'worker-failed') {
            this.#retryTimer ??= setTimeout(() => {
              this.#retryTimer = null;
              this.wake();
            }, PREPARE_RETRY_MS);
          }
          this.onChecked();
          if (outcome === 'worker-failed') return;
        }
      } while (this.#again && !this.#stopped && this.#retryTimer === null);
    } catch (err) {
      console.error('upload check loop', err);
    } finally {
      this.#lanes -= 1;
    }
  }
}
