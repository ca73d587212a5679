/**
 * Whether this process is receiving photos right now, so the lab's preview jobs leave a core to
 * the upload: while photos arrive, previews are made one at a time (the other core is the
 * upload's), each as soon as its own photo is in, in the order the photos arrived; once no upload
 * is in progress, as many at once as the job worker runs.
 *
 * Why not wait for the end of the upload instead (as the lab first did, docs/performance-notes.md §7:
 * the job ran through a large upload on both cores, sharp's decode being the costly part of a
 * photo's work at the lab): every preview then came after the whole order, the
 * first photo's as late as the last one's, and a long upload kept them all back for minutes.
 * One decode at a time costs at most one of the two cores, so the upload keeps the other.
 *
 * One per process (passed in ServerDeps, never a module singleton): an upload's lab calls reach
 * the process that serves them, and its job worker holds back only for what this process sees.
 * With several processes a job may run in one while another receives the photos: the previews are
 * still made, only not held to one at a time.
 */

/** No lab call for an order this long: its upload has ended (or paused). */
export const QUIET_MS = 5_000;
/** Previews made at once while photos arrive: one core of the lab's two. */
export const PREVIEWS_WHILE_RECEIVING = 1;
/** Orders remembered before the quiet ones are let go (an entry is one number). */
const PRUNE_AT = 1_000;
/**
 * How often a waiting preview looks again, for the moment the upload goes quiet (a preview that
 * finishes wakes the next one at once).
 */
const LOOK_EVERY_MS = 500;

export class UploadActivity {
  /** Each order's last lab call of an upload. */
  readonly #orders = new Map<string, number>();
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Previews being made now, and those waiting their turn (first come, first served). */
  #making = 0;
  readonly #waiting: object[] = [];
  readonly #wakers = new Set<() => void>();

  constructor(opts: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {}) {
    this.#now = opts.now ?? Date.now;
    this.#sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** A lab call of an upload to this order (a new photo, a completion, a confirmation). */
  touch(orderGuid: string): void {
    const now = this.#now();
    // Orders whose upload ended are let go here, so the map stays small.
    if (this.#orders.size >= PRUNE_AT) for (const [guid, last] of this.#orders) if (now - last >= QUIET_MS) this.#orders.delete(guid);
    this.#orders.set(orderGuid, now);
  }

  /** Whether any order is receiving photos in this process now. */
  receiving(): boolean {
    const now = this.#now();
    for (const [guid, last] of this.#orders) {
      if (now - last < QUIET_MS) return true;
      this.#orders.delete(guid);
    }
    return false;
  }

  /**
   * Runs one photo's previews when its turn comes: at once when no upload is in progress, else
   * once the previews before it are made, one at a time. Turns are taken in the order asked.
   */
  async turn<T>(make: () => Promise<T>): Promise<T> {
    const ticket = {};
    this.#waiting.push(ticket);
    while (this.#waiting[0] !== ticket || (this.#making >= PREVIEWS_WHILE_RECEIVING && this.receiving())) await this.#nextLook();
    this.#waiting.shift();
    this.#making += 1;
    // The next in line may go too, when no upload holds it back.
    this.#wake();
    try {
      return await make();
    } finally {
      this.#making -= 1;
      this.#wake();
    }
  }

  #nextLook(): Promise<void> {
    return Promise.race([this.#sleep(LOOK_EVERY_MS), new Promise<void>((resolve) => this.#wakers.add(resolve))]);
  }

  #wake(): void {
    const wakers = [...this.#wakers];
    this.#wakers.clear();
    for (const wake of wakers) wake();
  }
}
