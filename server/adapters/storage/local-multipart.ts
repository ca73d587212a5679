import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open as openFile, readFile, readdir, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PartDigests } from './local-part-digests.ts';
import { MIN_PART_BYTES, MultipartError, bareEtag, type ByteScan, type UploadedPart } from './storage.ts';

/**
 * S3-style multipart uploads for the embedded store. Next to the object's file `<file>`:
 *   <file>.part-<uploadId>            the open upload (its content type and part size); gone once finished
 *   <file>.part-<uploadId>.data       the object's bytes: part n is written at (n - 1) × part size
 *   <file>.part-<uploadId>-<n>.etag   "<ETag> <size>" of part n, once received whole (the ETag is
 *                                     the MD5 of its bytes, as S3 makes it)
 * Each part is written straight to its place in the one data file (positional writes), so the
 * completion only renames that file into the object's place: no byte is copied or appended (before,
 * each part was a file of its own and the completion appended them: a 20 MB photo's bytes written
 * twice on the server; docs/performance-notes.md §7).
 * Everything shares the `.part-` prefix that LocalStorage.remove clears with the object.
 *
 * Writers of one upload are tracked in memory (PartWriters): a part's retry waits for its earlier
 * PUT to end, and a completion waits for every part being written. One server process per store
 * directory, as the embedded store runs.
 */

const UPLOAD_ID = /^[0-9a-f]{32}$/;
const markerOf = (file: string, uploadId: string) => `${file}.part-${uploadId}`;
export const dataOf = (file: string, uploadId: string) => `${file}.part-${uploadId}.data`;
export const receiptOf = (file: string, uploadId: string, n: number) => `${file}.part-${uploadId}-${n}.etag`;
const unique = () => `${process.pid}-${Date.now()}-${randomBytes(4).toString('hex')}`;

export class TooLarge extends Error {}

const noSuchUpload = () => new MultipartError('NoSuchUpload', 'This upload does not exist or is already finished.');

/**
 * Streams `body` into `path`, refusing it past maxBytes (TooLarge); answers the size and the MD5.
 * Leaves nothing at `path` when it fails.
 */
export async function writeLimited(body: Readable, path: string, maxBytes: number): Promise<{ size: number; md5: string }> {
  let size = 0;
  const md5 = createHash('md5');
  try {
    await pipeline(
      body,
      async function* limit(source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > maxBytes) throw new TooLarge();
          md5.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(path),
    );
    return { size, md5: md5.digest('hex') };
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
}

/** Who is writing which part now, per upload (one process per store directory). */
export class PartWriters {
  readonly #parts = new Map<string, Promise<void>>();
  readonly #uploads = new Map<string, { count: number; idle: Promise<void>; done: () => void }>();

  /** Runs `write` once no earlier write of the same part is under way. */
  async one<T>(file: string, uploadId: string, n: number, write: () => Promise<T>): Promise<T> {
    const key = `${file}|${uploadId}|${n}`;
    const before = this.#parts.get(key) ?? Promise.resolve();
    let release = () => {};
    const mine = new Promise<void>((resolve) => (release = resolve));
    const queued = before.then(() => mine);
    this.#parts.set(key, queued);
    await before;
    const upload = `${file}|${uploadId}`;
    let open = this.#uploads.get(upload);
    if (!open) {
      let done = () => {};
      const idle = new Promise<void>((resolve) => (done = resolve));
      open = { count: 0, idle, done };
      this.#uploads.set(upload, open);
    }
    open.count += 1;
    try {
      return await write();
    } finally {
      open.count -= 1;
      if (open.count === 0) {
        this.#uploads.delete(upload);
        open.done();
      }
      release();
      if (this.#parts.get(key) === queued) this.#parts.delete(key);
    }
  }

  /** Resolves once no part of the upload is being written. */
  idle(file: string, uploadId: string): Promise<void> {
    return this.#uploads.get(`${file}|${uploadId}`)?.idle ?? Promise.resolve();
  }
}

/** Starts an upload for the object file `file` in parts of `partSize` bytes; answers its upload id. */
export async function startParts(file: string, contentType: string, partSize: number): Promise<string> {
  const uploadId = randomBytes(16).toString('hex');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(dataOf(file, uploadId), '');
  await writeFile(markerOf(file, uploadId), JSON.stringify({ contentType, partSize }));
  return uploadId;
}

async function openUpload(file: string, uploadId: string, marker = markerOf(file, uploadId)): Promise<{ contentType: string; partSize: number }> {
  if (!UPLOAD_ID.test(uploadId)) throw noSuchUpload();
  try {
    const open = JSON.parse(await readFile(marker, 'utf8')) as { contentType: string; partSize?: number };
    // Started before parts were written in place (a server of an earlier version): the browser
    // starts the photo again.
    if (!open.partSize) throw noSuchUpload();
    return { contentType: open.contentType, partSize: open.partSize };
  } catch {
    throw noSuchUpload();
  }
}

const exists = (path: string) => stat(path).then(
  () => true,
  () => false,
);

/** Part n as received: its ETag (bare) and size; null while it is not (or no longer) received whole. */
export async function receivedPart(file: string, uploadId: string, n: number): Promise<{ etag: string; size: number } | null> {
  const text = await readFile(receiptOf(file, uploadId, n), 'utf8').catch(() => null);
  const [etag, size] = text?.split(' ') ?? [];
  return etag && size && /^\d+$/.test(size) ? { etag, size: Number(size) } : null;
}

/** Where part n's bytes are, for a reader of a received part (local-part-digests.ts). */
export async function locatePart(file: string, uploadId: string, n: number): Promise<{ etag: string; path: string; start: number; size: number } | null> {
  const [received, open] = await Promise.all([receivedPart(file, uploadId, n), openUpload(file, uploadId).catch(() => null)]);
  return received && open ? { ...received, path: dataOf(file, uploadId), start: (n - 1) * open.partSize } : null;
}

/**
 * Receives part `n` (a retry replaces it) at its place in the upload's data file; answers its
 * ETag. `beforeCommit` may throw to refuse the part once its bytes are in (the upload was sealed
 * meanwhile). While its bytes are written the part counts as not received, so a PUT that fails
 * half-way leaves it to be sent again, never a part that is half old and half new.
 */
export async function receivePart(
  file: string,
  uploadId: string,
  n: number,
  body: Readable,
  maxBytes: number,
  beforeCommit: () => Promise<void>,
  writers: PartWriters,
  digests?: PartDigests,
): Promise<string> {
  const { partSize } = await openUpload(file, uploadId);
  if (!Number.isInteger(n) || n < 1) throw noSuchUpload();
  // No part may reach into the next one's place.
  const limit = Math.min(maxBytes, partSize);
  return writers.one(file, uploadId, n, async () => {
    // Finished or dropped while this PUT waited for an earlier one of the same part.
    if (!(await exists(markerOf(file, uploadId)))) throw noSuchUpload();
    digests?.willCommit(file, uploadId, n);
    try {
      await rm(receiptOf(file, uploadId, n), { force: true });
      const md5 = createHash('md5');
      let size = 0;
      const data = await openFile(dataOf(file, uploadId), 'r+');
      try {
        const at = (n - 1) * partSize;
        for await (const chunk of body as AsyncIterable<Buffer>) {
          if (size + chunk.length > limit) throw new TooLarge();
          md5.update(chunk);
          let written = 0;
          while (written < chunk.length) written += (await data.write(chunk, written, chunk.length - written, at + size + written)).bytesWritten;
          size += chunk.length;
        }
      } finally {
        await data.close();
      }
      await beforeCommit();
      // Finished or dropped while the part was arriving: the part has nowhere to go.
      if (!(await exists(markerOf(file, uploadId)))) throw noSuchUpload();
      const etag = md5.digest('hex');
      await writeFile(receiptOf(file, uploadId, n), `${etag} ${size}`);
      return `"${etag}"`;
    } finally {
      // Hashed now, in part order, while the rest of the photo arrives (local-part-digests.ts).
      digests?.committed(file, uploadId, n);
    }
  });
}

/**
 * Checks the browser's list of parts against what arrived, as S3's CompleteMultipartUpload does,
 * and, since the parts lie at fixed places in one file, that they are parts 1 to k with every part
 * but the last exactly `partSize` long. Answers the object's size.
 */
async function checkParts(file: string, uploadId: string, parts: UploadedPart[], partSize: number): Promise<number> {
  if (!parts.length) throw new MultipartError('InvalidPart', 'An upload needs at least one part.');
  let total = 0;
  for (const [i, part] of parts.entries()) {
    const previous = parts[i - 1];
    if (previous && part.partNumber <= previous.partNumber) throw new MultipartError('InvalidPartOrder', 'The parts must be listed once each, in ascending order.');
    const received = await receivedPart(file, uploadId, part.partNumber);
    if (part.partNumber !== i + 1 || received === null || received.etag !== bareEtag(part.etag)) {
      throw new MultipartError('InvalidPart', `Part ${part.partNumber} was not received as listed. Please send it again.`, part.partNumber);
    }
    if (i < parts.length - 1 && received.size < MIN_PART_BYTES) {
      throw new MultipartError('EntityTooSmall', `Part ${part.partNumber} is smaller than 5 MiB; only the last part may be.`, part.partNumber);
    }
    if (i < parts.length - 1 && received.size !== partSize) {
      throw new MultipartError('InvalidPart', `Part ${part.partNumber} is not ${partSize} bytes long as every part but the last must be. Please send it again.`, part.partNumber);
    }
    total += received.size;
  }
  return total;
}

/** What the store learned of an object's bytes while it joined them (see LocalStorage.digest). */
export interface JoinedDigest {
  sha256: string;
  /** What the caller's scan said of the bytes (a JPEG reaching its end marker); absent without a scan. */
  whole?: boolean;
}

// Reads of 1 MiB when the completion has to hash: a 20 MB photo in 20 steps rather than 320 of 64 KiB.
const JOIN_READ_BYTES = 1024 * 1024;

/**
 * Makes the listed parts the object at `file` and removes the upload's staged files. The parts are
 * already in place in the data file, which becomes the object's file by a rename. Its SHA-256
 * (and `scan`'s verdict) come from the parts' digests taken as they arrived; without them (a
 * restart since, a part replaced after it was hashed) the file is read once to hash it, so the
 * confirmation need not read the photo again either way.
 */
export async function assembleParts(file: string, uploadId: string, parts: UploadedPart[], writers: PartWriters, scan?: ByteScan, digests?: PartDigests): Promise<{ size: number; contentType: string }> {
  const marker = markerOf(file, uploadId);
  const { contentType, partSize } = await openUpload(file, uploadId);
  // Claimed by a rename, so two completions at once cannot both finish (the loser sees no
  // upload), and no part's write starts from now on.
  const claim = `${marker}.completing-${unique()}`;
  await rename(marker, claim).catch(() => Promise.reject(noSuchUpload()));
  try {
    // A part still being written (a retry racing the completion) ends first; its receipt, if
    // any, is what the check below reads.
    await writers.idle(file, uploadId);
    const size = await checkParts(file, uploadId, parts, partSize);
    const data = dataOf(file, uploadId);
    const hashed = await digests?.take(file, uploadId, parts);
    const early = hashed && hashed.size === size && (!scan || hashed.whole !== undefined) ? hashed : null;
    let digest: JoinedDigest;
    if (early) digest = { sha256: early.sha256, ...(early.whole === undefined || !scan ? {} : { whole: early.whole }) };
    else {
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(data, { highWaterMark: JOIN_READ_BYTES, end: size - 1 }) as AsyncIterable<Buffer>) {
        hash.update(chunk);
        scan?.push(chunk);
      }
      digest = { sha256: hash.digest('hex'), ...(scan ? { whole: scan.complete } : {}) };
    }
    await writeFile(`${file}.meta.json`, JSON.stringify({ contentType, size, digest }));
    // A part beyond the listed ones may have been written: the object ends with the last listed.
    await truncate(data, size);
    await rename(data, file);
    await abortParts(file, uploadId);
    return { size, contentType };
  } catch (err) {
    // Put back as it was, so the browser can send a part again and complete once more.
    await rename(claim, marker).catch(() => undefined);
    throw err;
  }
}

/** Drops an upload: its marker, parts, ETags and half-written parts. */
export async function abortParts(file: string, uploadId: string): Promise<void> {
  if (!UPLOAD_ID.test(uploadId)) return;
  const prefix = `${basename(file)}.part-${uploadId}`;
  const siblings = await readdir(dirname(file)).catch(() => [] as string[]);
  await Promise.all(siblings.filter((f) => f.startsWith(prefix)).map((f) => rm(join(dirname(file), f), { force: true })));
}
