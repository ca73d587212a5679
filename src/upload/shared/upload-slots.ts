/**
 * Six files at once, more than the PUT slots below: while two files make their round trips to
 * the lab (create_presigned_url, complete_upload, photograph_uploaded, which verifies the stored
 * photo), four can be sending, so the uplink never idles waiting for the lab; most photos are a
 * single PUT each. The slots serve the earliest file first, so photos still arrive one after
 * another, and few multipart uploads are open at a time.
 */
export const MAX_ACTIVE_FILES = 6;
/**
 * Four PUTs in flight across all files: enough to fill a link whose latency one request leaves
 * idle, and under the 6 connections per host a browser opens over HTTP/1.1 (Uppy's limit), so
 * API calls and thumbnails still get a connection. Four lost parts is also the most a dropped
 * connection can cost.
 */
export const MAX_PARTS_IN_FLIGHT = 4;
/**
 * A counting semaphore with a first-come queue: the part PUTs of every file share the slots, and
 * a file's parts, asked for together, are served before a later file's, so the queue finishes
 * what it started instead of spreading the bandwidth over every file.
 */
export class Slots {
  #free: number;
  readonly #waiting: { grant: () => void; signal: AbortSignal | undefined; onAbort: () => void }[] = [];

  constructor(count: number) {
    this.#free = count;
  }

  get free(): number {
    return this.#free;
  }

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const release = () => {
        this.#free += 1;
        this.#next();
      };
      if (this.#free > 0) {
        this.#free -= 1;
        resolve(once(release));
        return;
      }
      const waiter = {
        signal,
        grant: () => {
          signal?.removeEventListener('abort', waiter.onAbort);
          resolve(once(release));
        },
        onAbort: () => {
          const at = this.#waiting.indexOf(waiter);
          if (at >= 0) this.#waiting.splice(at, 1);
          reject(signal?.reason as Error);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  #next(): void {
    const waiter = this.#waiting.shift();
    if (!waiter) return;
    this.#free -= 1;
    waiter.grant();
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
