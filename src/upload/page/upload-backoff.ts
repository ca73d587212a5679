/**
 * When each file of the upload queue may go again after a failure (src/upload/shared/upload-retry.ts
 * has the rules): its failures in a row and its not-before time, in memory only. A wait for the
 * connection ends as soon as the lab is back; progress wipes the file's record.
 */
import { MAX_SERVER_ATTEMPTS, retryDelayMs } from '../shared/upload-retry.ts';

export class Backoff {
  /** Not before this time; and why (an offline wait ends as soon as the lab is back). */
  readonly #notBefore = new Map<string, { at: number; offline: boolean }>();
  readonly #attempts = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly random: () => number,
  ) {}

  /** Files waiting out a backoff (or the connection). */
  get size(): number {
    return this.#notBefore.size;
  }

  /** Whether the file must still wait at time `t`. */
  waits(id: string, t: number): boolean {
    return (this.#notBefore.get(id)?.at ?? 0) > t;
  }

  /** The file may go now; with `fresh`, its failures in a row are forgotten too. */
  release(id: string, fresh = true): void {
    this.#notBefore.delete(id);
    if (fresh) this.#attempts.delete(id);
  }

  /** The lab is back: whatever waited for the connection goes now, not at its backoff time. */
  connectionBack(): void {
    for (const [id, wait] of this.#notBefore) if (wait.offline) this.#notBefore.delete(id);
  }

  /**
   * One more failure of the file: when it may go again, or null when a busy server has refused
   * it too often. Lost connections never use up the attempts (the photo waits for the lab,
   * however long), nor does a request the lab is still working on.
   */
  failed(id: string, action: 'offline' | 'transient' | 'busy'): number | null {
    const attempts = (this.#attempts.get(id) ?? 0) + 1;
    this.#attempts.set(id, attempts);
    if (action === 'transient' && attempts >= MAX_SERVER_ATTEMPTS) return null;
    const at = this.now() + retryDelayMs(attempts, this.random);
    this.#notBefore.set(id, { at, offline: action === 'offline' });
    return at;
  }

  /** The earliest time a file not `active` may go again, if any waits. */
  nextAt(active: (id: string) => boolean): number | null {
    let next: number | null = null;
    for (const [id, wait] of this.#notBefore) if (!active(id) && (next === null || wait.at < next)) next = wait.at;
    return next;
  }
}
