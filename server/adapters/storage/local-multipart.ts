import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PartDigests } from './local-part-digests.ts';
import { MIN_PART_BYTES, MultipartError, bareEtag, type ByteScan, type UploadedPart } from './storage.ts';

/**
 * S3-style multipart uploads for the embedded store. Next to the object's file `<file>`:
 *   <file>.part-<uploadId>            the open upload (its content type); gone once finished
 *   <file>.part-<uploadId>-<n>        part n, once received whole
 *   <file>.part-<uploadId>-<n>.etag   its ETag: the MD5 of its bytes, as S3 makes it
 * Everything shares the `.part-` prefix that LocalStorage.remove clears with the object.
 */

const UPLOAD_ID = /^[0-9a-f]{32}$/;
const markerOf = (file: string, uploadId: string) => `${file}.part-${uploadId}`;
export const partOf = (file: string, uploadId: string, n: number) => `${file}.part-${uploadId}-${n}`;
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

/** Starts an upload for the object file `file`; answers its upload id. */
export async function startParts(file: string, contentType: string): Promise<string> {
  const uploadId = randomBytes(16).toString('hex');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(markerOf(file, uploadId), JSON.stringify({ contentType }));
  return uploadId;
}

async function openUpload(file: string, uploadId: string): Promise<{ contentType: string }> {
  if (!UPLOAD_ID.test(uploadId)) throw noSuchUpload();
  try {
    return JSON.parse(await readFile(markerOf(file, uploadId), 'utf8')) as { contentType: string };
  } catch {
    throw noSuchUpload();
  }
}

const exists = (path: string) => stat(path).then(
  () => true,
  () => false,
);

/**
 * Receives part `n` (a retry replaces it); answers its ETag. `beforeCommit` may throw to refuse
 * the part once its bytes are in (the upload was sealed meanwhile).
 */
export async function receivePart(
  file: string,
  uploadId: string,
  n: number,
  body: Readable,
  maxBytes: number,
  beforeCommit: () => Promise<void>,
  digests?: PartDigests,
): Promise<string> {
  await openUpload(file, uploadId);
  const target = partOf(file, uploadId, n);
  // Named under the same prefix, so an upload removed mid-part takes the half-written part too.
  const temp = `${target}.upload-${unique()}`;
  const { md5 } = await writeLimited(body, temp, maxBytes);
  try {
    await beforeCommit();
    // Finished or dropped while the part was arriving: the part has nowhere to go.
    if (!(await exists(markerOf(file, uploadId)))) throw noSuchUpload();
    digests?.willCommit(file, uploadId, n);
    try {
      await writeFile(`${target}.etag`, md5);
      await rename(temp, target);
    } finally {
      // Hashed now, in part order, while the rest of the photo arrives (local-part-digests.ts).
      digests?.committed(file, uploadId, n);
    }
  } finally {
    await rm(temp, { force: true });
  }
  return `"${md5}"`;
}

/** Checks the browser's list of parts against what arrived, as S3's CompleteMultipartUpload does. */
async function checkParts(file: string, uploadId: string, parts: UploadedPart[]): Promise<void> {
  if (!parts.length) throw new MultipartError('InvalidPart', 'An upload needs at least one part.');
  for (const [i, part] of parts.entries()) {
    const previous = parts[i - 1];
    if (previous && part.partNumber <= previous.partNumber) throw new MultipartError('InvalidPartOrder', 'The parts must be listed once each, in ascending order.');
    const path = partOf(file, uploadId, part.partNumber);
    const etag = await readFile(`${path}.etag`, 'utf8').catch(() => null);
    if (etag === null || etag !== bareEtag(part.etag)) {
      throw new MultipartError('InvalidPart', `Part ${part.partNumber} was not received as listed. Please send it again.`, part.partNumber);
    }
    const { size } = await stat(path);
    if (i < parts.length - 1 && size < MIN_PART_BYTES) {
      throw new MultipartError('EntityTooSmall', `Part ${part.partNumber} is smaller than 5 MiB; only the last part may be.`, part.partNumber);
    }
  }
}

/** What the store learned of an object's bytes while it joined them (see LocalStorage.digest). */
export interface JoinedDigest {
  sha256: string;
  /** What the caller's scan said of the bytes (a JPEG reaching its end marker); absent without a scan. */
  whole?: boolean;
}

// Reads of 1 MiB while joining: a 20 MB photo in 20 steps rather than 320 of 64 KiB.
const JOIN_READ_BYTES = 1024 * 1024;

/**
 * Joins the listed parts, in order, into `file`, and removes the upload's staged files. The first
 * part becomes the object's file by a rename and the others are appended to it, so its bytes are
 * never copied; every byte is read once (the first part from the page cache it was just written
 * to) to hash it with SHA-256 and feed `scan`, so the confirmation need not read the photo again.
 */
export async function assembleParts(file: string, uploadId: string, parts: UploadedPart[], scan?: ByteScan, digests?: PartDigests): Promise<{ size: number; contentType: string }> {
  const { contentType } = await openUpload(file, uploadId);
  await checkParts(file, uploadId, parts);
  // Hashed (and scanned) as the parts arrived: joining them only appends. Without it (a restart
  // since, a part replaced after it was hashed), every byte is hashed here.
  const hashed = await digests?.take(file, uploadId, parts);
  const early = hashed && (!scan || hashed.whole !== undefined) ? hashed : null;
  // Claimed by a rename, so two completions at once cannot both assemble (the loser sees no upload).
  const marker = markerOf(file, uploadId);
  const claim = `${marker}.completing-${unique()}`;
  await rename(marker, claim).catch(() => Promise.reject(noSuchUpload()));
  const temp = `${file}.upload-${unique()}`;
  const [first, ...rest] = parts;
  if (!first) throw new MultipartError('InvalidPart', 'An upload needs at least one part.');
  const firstPath = partOf(file, uploadId, first.partNumber);
  const firstSize = (await stat(firstPath)).size;
  await rename(firstPath, temp);
  try {
    const hash = createHash('sha256');
    const feed = async function* (path: string) {
      for await (const chunk of createReadStream(path, { highWaterMark: JOIN_READ_BYTES }) as AsyncIterable<Buffer>) {
        if (!early) {
          hash.update(chunk);
          scan?.push(chunk);
        }
        yield chunk;
      }
    };
    // The first part is only read (it is already in place; not at all when hashed already); the
    // others are read and appended.
    if (!early) {
      const firstBytes = feed(temp);
      while (!(await firstBytes.next()).done);
    }
    await pipeline(async function* appended() {
      for (const part of rest) yield* feed(partOf(file, uploadId, part.partNumber));
    }, createWriteStream(temp, { flags: 'a' }));
    const { size } = await stat(temp);
    if (early && early.size !== size) throw new Error(`the parts of ${basename(file)} changed while they were joined`);
    const digest: JoinedDigest = early
      ? { sha256: early.sha256, ...(early.whole === undefined || !scan ? {} : { whole: early.whole }) }
      : { sha256: hash.digest('hex'), ...(scan ? { whole: scan.complete } : {}) };
    await writeFile(`${file}.meta.json`, JSON.stringify({ contentType, size, digest }));
    await rename(temp, file);
    await abortParts(file, uploadId);
    return { size, contentType };
  } catch (err) {
    // Put back as it was (the first part cut back to its own bytes), so the browser can send a
    // part again and complete once more.
    await truncate(temp, firstSize)
      .then(() => rename(temp, firstPath))
      .catch(() => rm(temp, { force: true }));
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
