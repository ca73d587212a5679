/**
 * The upload queue's main-thread side: decides which queued photo is checked next and which are
 * sent, within bounds, and when to wait. The work itself is in the worker (upload-worker-bridge)
 * and in each file's steps (src/upload/worker/upload-steps.ts); every state lives in IndexedDB,
 * so this class holds nothing that a reload would miss: timers, counters and the files in flight.
 */
import type { LabDatabase, UploadEntry } from '../../offline/db.ts';
import { Backoff } from './upload-backoff.ts';
import { ProgressTracker } from './upload-progress.ts';
import type { Reachability } from './upload-reachability.ts';
import { MAX_ACTIVE_FILES } from '../shared/upload-slots.ts';
import type { SendOutcome, SenderPort } from '../shared/protocol.ts';
import { CheckLoop } from './upload-prepare.ts';
import { failUpload, nextToCheck, pendingBytes, removeUpload, retryUpload, sendCandidates, setPaused } from '../shared/upload-store.ts';
import type { UploadWorkerPort } from './upload-worker-bridge.ts';

/** The worker (and its memory) goes after 30 s without work; the next queued photo starts it again. */
export const IDLE_STOP_MS = 30_000;
/** While the lab is unreachable and the browser says online, look every 5 s: back within seconds. */
export const PROBE_EVERY_MS = 5_000;
/**
 * Looks at the queue at most every 100 ms: each look reads the owner's queue rows (small, no
 * bytes), and 1,000 of them read many times a second would cost the page's thread.
 */
const PLAN_GAP_MS = 100;
/** The overall bar's total is summed again every 2 s (from an index: no row is read). */
const PENDING_BYTES_EVERY_MS = 2_000;

export interface QueueDeps {
  db: LabDatabase;
  worker: UploadWorkerPort;
  reachability: Reachability;
  /**
   * Who runs each file's steps: the app passes the upload worker's (upload-worker-bridge), so no
   * part is chosen, sent or recorded on the page's thread; unit tests run a Sender in-process.
   */
  sender: SenderPort;
  now?: () => number;
  random?: () => number;
}


export class UploadQueue {
  readonly owner: string;
  readonly #deps: Required<QueueDeps>;
  readonly #progress: ProgressTracker;
  /** Files the sender runs now. */
  readonly #active = new Set<string>();
  readonly #checks: CheckLoop;
  readonly #backoff: Backoff;
  #started = false;
  #stopped = false;
  #pumping = false;
  #again = false;
  #wakeTimer: ReturnType<typeof setTimeout> | null = null;
  #probeTimer: ReturnType<typeof setTimeout> | null = null;
  #idleTimer: ReturnType<typeof setTimeout> | null = null;
  #pendingBytes = 0;
  #pendingBytesAt = Number.NEGATIVE_INFINITY;
  /** The order and checksum of each file in flight: a twin waits for it. */
  readonly #twins = new Map<string, string>();
  readonly #unsubscribe: (() => void)[] = [];
  readonly #finished: Promise<void>;
  #finish: () => void = () => {};

  constructor(owner: string, deps: QueueDeps) {
    this.owner = owner;
    this.#deps = { now: Date.now, random: Math.random, ...deps };
    this.#progress = new ProgressTracker(this.#deps.now);
    this.#backoff = new Backoff(this.#deps.now, this.#deps.random);
    this.#finished = new Promise((resolve) => (this.#finish = resolve));
    this.#checks = new CheckLoop({ db: deps.db, worker: deps.worker, owner, progress: this.#progress }, () => this.kick());
  }

  /** Resolves when the queue is stopped (the tab's lock on the queue is held until then). */
  get finished(): Promise<void> {
    return this.#finished;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    this.#progress.setRunning(true);
    const { reachability, sender } = this.#deps;
    this.#unsubscribe.push(
      reachability.subscribe((reachable) => {
        if (!reachable) {
          this.#holdForConnection();
          return;
        }
        // Back online: whatever waited for the connection goes now, not at its backoff time.
        this.#backoff.connectionBack();
        this.kick();
      }),
      sender.listen({
        onBytes: (id, sent, phase) => {
          // A batch may arrive after its file's run ended: a finished file's bar is gone.
          if (!this.#active.has(id)) return;
          this.#progress.set(id, { sent, phase, retryAt: null });
          this.#progress.refreshOverall(this.#pendingBytes);
        },
        onProgressMade: (id) => this.#backoff.release(id),
        onNoAnswer: () => reachability.noAnswer(),
      }),
    );
    this.kick();
  }

  /** Stops sending (in-flight PUTs are aborted; finished parts stay recorded). */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#checks.stop();
    this.#deps.sender.abort([...this.#active]);
    for (const off of this.#unsubscribe.splice(0)) off();
    for (const timer of [this.#wakeTimer, this.#probeTimer, this.#idleTimer]) if (timer !== null) clearTimeout(timer);
    this.#progress.setRunning(false);
    this.#progress.setWaiting(false);
    this.#finish();
  }

  /**
   * The lab became unreachable: the queue holds where it is. PUTs in flight are aborted rather
   * than left to a link that can no longer answer them (their bytes would be sent again anyway,
   * and a half-dead link may keep taking bytes for a while); finished parts are recorded, so when
   * the lab is back each file goes on from its first missing part: a drop costs at most the PUTs
   * that were in flight. Aborted files are not failed: they wait (#failed ignores aborts).
   */
  #holdForConnection(): void {
    this.#deps.sender.abort([...this.#active]);
    this.kick();
  }

  /** Something changed (files added, the lab back): look at the queue again. */
  kick(): void {
    if (!this.#started || this.#stopped) return;
    void this.#pump();
  }

  async pause(ids: readonly string[]): Promise<void> {
    await setPaused(this.#deps.db, ids, true);
    for (const id of ids) {
      if (this.#active.has(id)) this.#deps.sender.abort([id]);
      this.#backoff.release(id, false);
    }
    this.kick();
  }

  async resume(ids: readonly string[]): Promise<void> {
    await setPaused(this.#deps.db, ids, false);
    for (const id of ids) this.#backoff.release(id, false);
    this.kick();
  }

  async retry(id: string): Promise<void> {
    await retryUpload(this.#deps.db, id);
    this.#backoff.release(id);
    this.kick();
  }

  async remove(id: string): Promise<void> {
    if (this.#active.has(id)) this.#deps.sender.abort([id]);
    this.#backoff.release(id);
    await removeUpload(this.#deps.db, id);
    this.#progress.drop(id, false);
    this.kick();
  }

  async #pump(): Promise<void> {
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#again = false;
        const started = this.#deps.now();
        await this.#plan();
        // Many changes in a burst (a batch of parts finishing) make one more look, not many.
        if (this.#again) await new Promise((r) => setTimeout(r, Math.max(0, started + PLAN_GAP_MS - this.#deps.now())));
      } while (this.#again && !this.#stopped);
    } catch (err) {
      console.error('upload queue', err);
    } finally {
      this.#pumping = false;
    }
  }

  async #plan(): Promise<void> {
    if (this.#stopped) return;
    const { db, reachability, now } = this.#deps;
    const t = now();
    const reachable = reachability.reachable();
    // Narrow reads (the next file to check, the files that may go now), never the whole queue:
    // a 1,000-photo queue costs the page's thread the same as a 10-photo one.
    if (t - this.#pendingBytesAt > PENDING_BYTES_EVERY_MS) {
      this.#pendingBytes = await pendingBytes(db, this.owner);
      this.#pendingBytesAt = t;
    }
    // In one read transaction: a look happens up to ten times a second while sending.
    const [next, candidates] = await db.transaction('r', db.uploads, () =>
      Promise.all([nextToCheck(db, this.owner), sendCandidates(db, this.owner, MAX_ACTIVE_FILES * 2, (r) => this.#active.has(r.id) || this.#backoff.waits(r.id, t))]),
    );
    // Stopped while reading: launch nothing (another tab or queue may own these files now).
    if (this.#stopped) return;

    if (next) this.#checks.wake();

    if (reachable) {
      // Two copies of one photo in one order never go at once: the second then finds the first.
      const busy = new Set(this.#twins.values());
      for (const r of candidates) {
        if (this.#active.size >= MAX_ACTIVE_FILES) break;
        // A photo not hashed yet is its own twin: the lab keeps one copy of the same bytes anyway.
        const twin = r.checksum ? `${r.orderGuid}|${r.checksum}` : r.id;
        if (this.#active.has(r.id) || this.#backoff.waits(r.id, t) || busy.has(twin)) continue;
        busy.add(twin);
        this.#launch(r, twin);
      }
    }

    const waiting = !reachable && (candidates.length > 0 || this.#backoff.size > 0);
    this.#progress.setWaiting(waiting);
    if (waiting) this.#probeSoon();
    this.#wakeAtNextRetry(t);
    this.#progress.refreshOverall(this.#pendingBytes);
    this.#stopWorkerWhenIdle(!this.#checks.busy && this.#active.size === 0 && !next);
  }

  #wakeAtNextRetry(t: number): void {
    const at = this.#backoff.nextAt((id) => this.#active.has(id));
    if (this.#wakeTimer !== null) clearTimeout(this.#wakeTimer);
    this.#wakeTimer = null;
    if (at !== null) this.#wakeTimer = setTimeout(() => this.kick(), Math.max(0, at - t));
  }

  #probeSoon(): void {
    const { reachability } = this.#deps;
    if (this.#probeTimer !== null || !reachability.worthProbing()) return;
    this.#probeTimer = setTimeout(() => {
      this.#probeTimer = null;
      void reachability.probe().finally(() => this.kick());
    }, PROBE_EVERY_MS);
  }

  #stopWorkerWhenIdle(idle: boolean): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    if (!idle) return;
    this.#progress.idle();
    this.#idleTimer = setTimeout(() => this.#deps.worker.stop(), IDLE_STOP_MS);
  }

  #launch(entry: UploadEntry, twin: string): void {
    this.#active.add(entry.id);
    this.#twins.set(entry.id, twin);
    this.#progress.set(entry.id, { phase: entry.state === 'completing' || entry.state === 'confirming' ? 'processing' : 'sending', total: entry.size, retryAt: null });
    this.#deps.sender
      .run(entry)
      .catch((err: unknown): SendOutcome => ({ kind: 'bug', message: err instanceof Error ? err.message : String(err) }))
      .then(async (outcome) => {
        if (outcome.kind === 'end') {
          this.#backoff.release(entry.id);
          this.#progress.drop(entry.id, outcome.end === 'done');
        } else await this.#failed(entry, outcome);
      })
      .finally(() => {
        this.#active.delete(entry.id);
        this.#twins.delete(entry.id);
        this.kick();
      });
  }

  /** A step failed in a way the file could not handle: wait and try again, or give up. */
  async #failed(entry: UploadEntry, outcome: Exclude<SendOutcome, { kind: 'end' }>): Promise<void> {
    const { db } = this.#deps;
    if (outcome.kind === 'aborted') return;
    if (outcome.kind === 'bug' || (outcome.action !== 'offline' && outcome.action !== 'transient' && outcome.action !== 'busy')) {
      console.error('upload', outcome);
      const current = (await db.uploads.get(entry.id)) ?? entry;
      await failUpload(db, current, `Something went wrong: ${outcome.message}`);
      this.#progress.drop(entry.id, false);
      return;
    }
    const at = this.#backoff.failed(entry.id, outcome.action);
    if (at === null) {
      const current = (await db.uploads.get(entry.id)) ?? entry;
      await failUpload(db, current, outcome.message);
      this.#progress.drop(entry.id, false);
      return;
    }
    this.#progress.set(entry.id, { phase: 'retrying', retryAt: at });
  }
}
