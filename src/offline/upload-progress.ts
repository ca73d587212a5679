/**
 * Live progress of the upload queue: bytes per file and overall, smoothed speed, and whether the
 * queue waits for a connection. In memory only (IndexedDB keeps the states and the finished
 * parts); screens subscribe per file, so 1,000 queued rows do not re-render on every tick.
 */
import { create } from 'zustand';
import { nextSpeed, startSpeed, type SpeedSample } from '../domain/upload-speed.ts';

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

/** Keeps speeds per file and overall and writes the store; the queue calls it. */
export class ProgressTracker {
  readonly #speeds = new Map<string, SpeedSample>();
  #overall: SpeedSample | null = null;
  /** Bytes of files finished since the queue last went idle: the overall bar keeps them. */
  #finishedBytes = 0;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  set(id: string, change: Partial<FileProgress> & { total?: number }): void {
    const now = this.#now();
    useUploadProgress.setState((s) => {
      const before = s.files[id] ?? { phase: 'checking', sent: 0, total: change.total ?? 0, bytesPerSecond: null, retryAt: null };
      const next = { ...before, ...change };
      if (change.sent !== undefined) {
        const speed = nextSpeed(this.#speeds.get(id) ?? startSpeed(now, before.sent), now, change.sent);
        this.#speeds.set(id, speed);
        next.bytesPerSecond = speed.bytesPerSecond;
      }
      return { files: { ...s.files, [id]: next } };
    });
  }

  /** A file left the queue (done, rejected, removed). */
  drop(id: string, finished: boolean): void {
    this.#speeds.delete(id);
    useUploadProgress.setState((s) => {
      const gone = s.files[id];
      if (!gone) return {};
      if (finished) this.#finishedBytes += gone.total;
      const { [id]: _, ...files } = s.files;
      return { files };
    });
  }

  /** Recomputes the overall figures from the files; called with each progress batch. */
  refreshOverall(pendingTotal: number): void {
    const now = this.#now();
    const files = Object.values(useUploadProgress.getState().files);
    const sent = this.#finishedBytes + files.reduce((sum, f) => sum + f.sent, 0);
    const total = this.#finishedBytes + pendingTotal;
    this.#overall = this.#overall ? nextSpeed(this.#overall, now, sent) : startSpeed(now, sent);
    useUploadProgress.setState({ overall: { sent, total, bytesPerSecond: this.#overall.bytesPerSecond } });
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
