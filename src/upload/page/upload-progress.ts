/**
 * Live progress of the upload queue: bytes per file and overall, smoothed speed, and whether the
 * queue waits for a connection. In memory only (IndexedDB keeps the states and the finished
 * parts); screens subscribe per file, so 1,000 queued rows do not re-render on every tick.
 */
import { create } from 'zustand';
import { nextSpeed, startSpeed, type SpeedSample } from '../shared/upload-speed.ts';

export type FilePhase = 'checking' | 'sending' | 'processing' | 'retrying';

export interface FileProgress {
  phase: FilePhase;
  sent: number;
  total: number;
  bytesPerSecond: number | null;
  /** When a retry is due (ms since epoch), while phase is 'retrying'. */
  retryAt: number | null;
}

export interface QueueProgress {
  files: Record<string, FileProgress>;
  overall: { sent: number; total: number; bytesPerSecond: number | null };
  /** Photos wait because the lab cannot be reached (not an error: they go when it can). */
  waitingForConnection: boolean;
  /** This tab runs the queue (another tab may, and this one then shows stored states only). */
  running: boolean;
}

export const useUploadProgress = create<QueueProgress>(() => ({
  files: {},
  overall: { sent: 0, total: 0, bytesPerSecond: null },
  waitingForConnection: false,
  running: false,
}));

/**
 * Keeps speeds per file and overall and writes the store; the queue calls it. Changes made in one
 * turn (a progress batch names every PUT in flight) reach the store, and the screen, as one update.
 */
export class ProgressTracker {
  readonly #files = new Map<string, FileProgress>();
  readonly #speeds = new Map<string, SpeedSample>();
  #overall: SpeedSample | null = null;
  #overallFigures: QueueProgress['overall'] = { sent: 0, total: 0, bytesPerSecond: null };
  /** Bytes of files finished since the queue last went idle: the overall bar keeps them. */
  #finishedBytes = 0;
  #publishing = false;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  #publish(): void {
    if (this.#publishing) return;
    this.#publishing = true;
    queueMicrotask(() => {
      this.#publishing = false;
      // Unchanged files keep their objects, so only rows whose figures moved re-render.
      useUploadProgress.setState({ files: Object.fromEntries(this.#files), overall: this.#overallFigures });
    });
  }

  set(id: string, change: Partial<FileProgress> & { total?: number }): void {
    const now = this.#now();
    const before = this.#files.get(id) ?? { phase: 'checking', sent: 0, total: change.total ?? 0, bytesPerSecond: null, retryAt: null };
    const next = { ...before, ...change };
    if (change.sent !== undefined) {
      const speed = nextSpeed(this.#speeds.get(id) ?? startSpeed(now, before.sent), now, change.sent);
      this.#speeds.set(id, speed);
      next.bytesPerSecond = speed.bytesPerSecond;
    }
    this.#files.set(id, next);
    this.#publish();
  }

  /** A file left the queue (done, rejected, removed). */
  drop(id: string, finished: boolean): void {
    const gone = this.#files.get(id);
    this.#speeds.delete(id);
    if (!gone) return;
    if (finished) this.#finishedBytes += gone.total;
    this.#files.delete(id);
    this.#publish();
  }

  /** Recomputes the overall figures from the files; called with each progress batch. */
  refreshOverall(pendingTotal: number): void {
    const now = this.#now();
    let sent = this.#finishedBytes;
    for (const f of this.#files.values()) sent += f.sent;
    const total = this.#finishedBytes + pendingTotal;
    this.#overall = this.#overall ? nextSpeed(this.#overall, now, sent) : startSpeed(now, sent);
    this.#overallFigures = { sent, total, bytesPerSecond: this.#overall.bytesPerSecond };
    this.#publish();
  }

  idle(): void {
    this.#finishedBytes = 0;
    this.#overall = null;
  }

  setWaiting(waiting: boolean): void {
    if (useUploadProgress.getState().waitingForConnection !== waiting) useUploadProgress.setState({ waitingForConnection: waiting });
  }

  setRunning(running: boolean): void {
    useUploadProgress.setState({ running });
  }
}
