/**
 * Which orders are receiving photos right now, so the lab's preview job can wait for the end of an
 * order's upload instead of decoding its photos on the same cores while they arrive (README
 * Performance, the upload's fifth pass: at 200 photos of 20 MB the job ran through the whole
 * upload and for two minutes after it, sharp costing about 175 ms of CPU a photo).
 *
 * One per process (passed in ServerDeps, never a module singleton): an upload's lab calls reach
 * the process that serves them, and its job worker defers only for what this process sees. With
 * several processes a job may run in one while another receives the photos: the previews are
 * still made, only not deferred.
 */

/** No lab call for an order this long: its upload has ended (or paused) and its previews go. */
export const QUIET_MS = 5_000;
/**
 * An upload busy for longer than this no longer holds its previews back: a photographer sending
 * thousands of photos still sees the first previews while the rest arrive, one job at a time.
 */
export const MAX_DEFER_MS = 3 * 60_000;
/** Orders remembered before the quiet ones are let go (an entry is two numbers). */
const PRUNE_AT = 1_000;
/** How often a deferred job looks again. */
const LOOK_EVERY_MS = 500;

interface Busy {
  since: number;
  last: number;
}

export class UploadActivity {
  readonly #orders = new Map<string, Busy>();
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(opts: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {}) {
    this.#now = opts.now ?? Date.now;
    this.#sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** A lab call of an upload to this order (a new photo, a completion, a confirmation). */
  touch(orderGuid: string): void {
    const now = this.#now();
    const busy = this.#orders.get(orderGuid);
    if (busy && now - busy.last < QUIET_MS) {
      busy.last = now;
      return;
    }
    // Orders whose upload ended and whose previews never asked (none accepted) are let go here.
    if (this.#orders.size >= PRUNE_AT) for (const [guid, b] of this.#orders) if (now - b.last >= QUIET_MS) this.#orders.delete(guid);
    this.#orders.set(orderGuid, { since: now, last: now });
  }

  /** Whether this order's previews should wait now. */
  holds(orderGuid: string): boolean {
    const busy = this.#orders.get(orderGuid);
    if (!busy) return false;
    const now = this.#now();
    if (now - busy.last >= QUIET_MS) {
      this.#orders.delete(orderGuid);
      return false;
    }
    return now - busy.since < MAX_DEFER_MS;
  }

  /** Resolves once the order's upload has gone quiet, or has been busy for MAX_DEFER_MS. */
  async quiet(orderGuid: string): Promise<void> {
    while (this.holds(orderGuid)) await this.#sleep(LOOK_EVERY_MS);
  }
}
