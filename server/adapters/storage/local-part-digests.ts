import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { bareEtag, type ByteScan, type UploadedPart } from './storage.ts';

/**
 * The SHA-256 of a multipart upload in the embedded store, computed while its parts arrive rather
 * than when it is completed: each part, once kept, is read back from the page cache it was just
 * written to and hashed in part order (a part that arrives early waits for the ones before it),
 * so complete_upload and photograph_uploaded do not read the photo again (docs/performance-notes.md §7).
 * SHA-256 cannot be combined from per-part digests, hence the order.
 *
 * Memory only: after a restart, or for an upload whose parts were replaced after they were hashed,
 * there is no digest, and the completion reads the parts as before. A digest is only ever used for
 * exactly the parts it hashed, each with the ETag it had then.
 */

interface Cursor {
  hash: Hash;
  scan: ByteScan | undefined;
  /** The next part to hash. */
  next: number;
  /** ETags of the parts hashed, by part number. */
  etags: Map<number, string>;
  size: number;
  /** Parts between "about to be kept" and "kept": not read until then. */
  committing: Set<number>;
  /** The part being read now (0: none). */
  reading: number;
  /** A part was replaced after it was hashed, or could not be read: no digest. */
  broken: boolean;
  /** The hashing under way; the completion waits for it. */
  work: Promise<void>;
}

// Reads of 1 MiB: a 20 MB photo in 20 steps rather than 320 of 64 KiB.
const READ_BYTES = 1024 * 1024;
// Open uploads tracked at most: an abandoned upload's cursor is a hash state and a scanner (a few
// KB); past this many the oldest is forgotten and its completion reads the parts instead.
const MAX_OPEN = 10_000;

/** Where a received part's bytes are (local-multipart.ts locatePart); null while it is not received. */
export type PartLocator = (file: string, uploadId: string, n: number) => Promise<{ etag: string; path: string; start: number; size: number } | null>;

export class PartDigests {
  readonly #open = new Map<string, Cursor>();
  readonly #locate: PartLocator;

  constructor(locate: PartLocator) {
    this.#locate = locate;
  }

  /** A new upload: its parts will be hashed, and fed to `scan`, in order. */
  start(file: string, uploadId: string, scan?: ByteScan): void {
    if (this.#open.size >= MAX_OPEN) this.#open.delete(this.#open.keys().next().value ?? '');
    this.#open.set(`${file}|${uploadId}`, { hash: createHash('sha256'), scan, next: 1, etags: new Map(), size: 0, committing: new Set(), reading: 0, broken: false, work: Promise.resolve() });
  }

  /** Part n is about to be kept (or replaced): one already hashed, or being hashed, spoils the digest. */
  willCommit(file: string, uploadId: string, n: number): void {
    const c = this.#open.get(`${file}|${uploadId}`);
    if (!c) return;
    if (n < c.next || n === c.reading) c.broken = true;
    c.committing.add(n);
  }

  /** Part n was kept (or its keeping failed): hash what can be hashed now. */
  committed(file: string, uploadId: string, n: number): void {
    const c = this.#open.get(`${file}|${uploadId}`);
    if (!c) return;
    c.committing.delete(n);
    c.work = c.work.then(() => this.#advance(c, file, uploadId));
  }

  async #advance(c: Cursor, file: string, uploadId: string): Promise<void> {
    while (!c.broken && !c.committing.has(c.next)) {
      const part = await this.#locate(file, uploadId, c.next);
      // Not here yet: its own commit calls again. (Its receipt is written inside the committing
      // window, so a part with a receipt is in place whole.)
      if (part === null || c.committing.has(c.next)) return;
      const { etag } = part;
      c.reading = c.next;
      try {
        if (part.size > 0) {
          for await (const chunk of createReadStream(part.path, { highWaterMark: READ_BYTES, start: part.start, end: part.start + part.size - 1 }) as AsyncIterable<Buffer>) {
            c.hash.update(chunk);
            c.scan?.push(chunk);
            c.size += chunk.length;
          }
        }
      } catch {
        // Gone while read (the upload was dropped): no digest.
        c.broken = true;
        return;
      } finally {
        c.reading = 0;
      }
      // Replaced while it was read: the bytes hashed may not be the bytes kept.
      if (c.broken) return;
      c.etags.set(c.next, etag);
      c.next += 1;
    }
  }

  /**
   * The digest of exactly these parts, when every one was hashed with the ETag listed; null
   * otherwise. Either way the upload's cursor is done with.
   */
  async take(file: string, uploadId: string, parts: readonly UploadedPart[]): Promise<{ sha256: string; size: number; whole: boolean | undefined } | null> {
    const key = `${file}|${uploadId}`;
    const c = this.#open.get(key);
    if (!c) return null;
    await c.work;
    this.#open.delete(key);
    const exact = parts.length === c.etags.size && parts.every((p, i) => p.partNumber === i + 1 && c.etags.get(p.partNumber) === bareEtag(p.etag));
    if (c.broken || !exact) return null;
    return { sha256: c.hash.digest('hex'), size: c.size, whole: c.scan?.complete };
  }

  forget(file: string, uploadId: string): void {
    this.#open.delete(`${file}|${uploadId}`);
  }
}
