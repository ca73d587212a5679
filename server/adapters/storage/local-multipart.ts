import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MIN_PART_BYTES, MultipartError, bareEtag, type UploadedPart } from './storage.ts';

/**
 * S3-style multipart uploads for the embedded store. Next to the object's file `<file>`:
 *   <file>.part-<uploadId>            the open upload (its content type); gone once finished
 *   <file>.part-<uploadId>-<n>        part n, once received whole
 *   <file>.part-<uploadId>-<n>.etag   its ETag: the MD5 of its bytes, as S3 makes it
 * Everything shares the `.part-` prefix that LocalStorage.remove clears with the object.
 */

const UPLOAD_ID = /^[0-9a-f]{32}$/;
const markerOf = (file: string, uploadId: string) => `${file}.part-${uploadId}`;
const partOf = (file: string, uploadId: string, n: number) => `${file}.part-${uploadId}-${n}`;
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
    await writeFile(`${target}.etag`, md5);
    await rename(temp, target);
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

/** Joins the listed parts, in order, into `file` by streaming; removes the upload's staged files. */
export async function assembleParts(file: string, uploadId: string, parts: UploadedPart[]): Promise<{ size: number; contentType: string }> {
  const { contentType } = await openUpload(file, uploadId);
  await checkParts(file, uploadId, parts);
  // Claimed by a rename, so two completions at once cannot both assemble (the loser sees no upload).
  const marker = markerOf(file, uploadId);
  const claim = `${marker}.completing-${unique()}`;
  await rename(marker, claim).catch(() => Promise.reject(noSuchUpload()));
  const temp = `${file}.upload-${unique()}`;
  try {
    await pipeline(async function* joined() {
      for (const part of parts) yield* createReadStream(partOf(file, uploadId, part.partNumber));
    }, createWriteStream(temp));
    const { size } = await stat(temp);
    await writeFile(`${file}.meta.json`, JSON.stringify({ contentType, size }));
    await rename(temp, file);
    await abortParts(file, uploadId);
    return { size, contentType };
  } catch (err) {
    // Reopened, so the browser can send a part again and complete once more.
    await rm(temp, { force: true });
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
