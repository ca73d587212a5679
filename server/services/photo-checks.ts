import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import sharp, { type Metadata } from 'sharp';
import { ACCEPTED_PHOTO_KINDS, SNIFF_BYTES, TAIL_BYTES, kindRefusal, sniffFileType, truncationRefusal, type FileKind } from './file-types.ts';
import type { Storage } from '../adapters/storage/storage.ts';
import { MAX_PHOTO_BYTES } from '../../src/domain/photo-content.ts';
import { MAX_IMAGE_PIXELS } from './file-checks.ts';
import { JpegEndScanner } from './jpeg-end.ts';

/**
 * The check a stored photo passes before it joins an order (docs/upload-and-sync.md §1): size
 * within the limit and as declared, JPEG or PNG by its bytes, SHA-256 as declared, complete (a
 * JPEG's data reaches its end marker, a PNG has its IEND), and a header within the pixel limit.
 * Cheap checks first, so a wrong file is refused before it is read whole; the one whole read
 * hashes and walks the JPEG together. Decoding every pixel is the derivatives job's work, not
 * the request's (docs/performance-notes.md §8): on the lab's cores it held back every upload behind
 * it (docs/performance-notes.md §7).
 */

export type PhotoVerdict =
  | { ok: true; kind: FileKind; contentType: 'image/jpeg' | 'image/png'; size: number; checksum: string; width: number; height: number }
  | { ok: false; reason: string };

/** What the browser declared, at create_presigned_url and (optionally) at photograph_uploaded. */
export interface Expected {
  fileName: string;
  sizes: number[];
  checksums: string[];
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Reads of 1 MiB: a 20 MB photo in 20 steps rather than 320 of the stream's default 64 KiB. */
const READ_BYTES = 1024 * 1024;

/** SHA-256 of a file, streamed (a 200 MB photo is never held in memory), and for a JPEG whether it is whole. */
export async function scanPhotoFile(path: string, kind: FileKind): Promise<{ checksum: string; complete: boolean }> {
  const hash = createHash('sha256');
  const jpeg = kind === 'jpeg' ? new JpegEndScanner() : null;
  for await (const chunk of createReadStream(path, { highWaterMark: READ_BYTES }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    jpeg?.push(chunk);
  }
  return { checksum: hash.digest('hex'), complete: jpeg ? jpeg.complete : true };
}

/**
 * The SHA-256 and JPEG end check the store computed while it joined the photo's parts (the local
 * store, docs/performance-notes.md §8): the same two facts scanPhotoFile reads the whole file for. Only when they
 * cover this object as it is now (its size) and, for a JPEG, the end was walked while joining.
 */
async function digestOf(storage: Storage, key: string, kind: FileKind, size: number): Promise<{ checksum: string; complete: boolean } | null> {
  const digest = (await storage.digest?.(key)) ?? null;
  if (!digest || digest.size !== size) return null;
  if (kind === 'jpeg' && digest.whole === undefined) return null;
  return { checksum: digest.sha256, complete: kind === 'jpeg' ? digest.whole === true : true };
}

const cutOff = (name: string) => `${name} is incomplete or damaged: the upload may have been cut off. Please upload it again.`;

export async function checkStoredPhoto(storage: Storage, key: string, expected: Expected): Promise<PhotoVerdict> {
  const name = expected.fileName;
  const head = await storage.head(key);
  if (!head) return { ok: false, reason: `${name} did not arrive. Please upload it again.` };
  if (head.size > MAX_PHOTO_BYTES) {
    return { ok: false, reason: `${name} is ${megabytes(head.size)}; the lab takes photos up to ${megabytes(MAX_PHOTO_BYTES)}.` };
  }
  const wrongSize = expected.sizes.find((size) => size !== head.size);
  if (wrongSize !== undefined) {
    return { ok: false, reason: `${name} arrived with ${head.size} bytes instead of ${wrongSize}: the upload was cut off or changed on the way. Please upload it again.` };
  }
  const sniffed = sniffFileType(await storage.readStart(key, SNIFF_BYTES));
  const wrongKind = kindRefusal(sniffed, ACCEPTED_PHOTO_KINDS, name);
  if (wrongKind) return { ok: false, reason: wrongKind };
  const kind: FileKind = sniffed === 'png' ? 'png' : 'jpeg';
  if (truncationRefusal(kind, await storage.readEnd(key, TAIL_BYTES))) return { ok: false, reason: cutOff(name) };

  const copy = await storage.localCopy(key);
  try {
    let meta: Metadata;
    try {
      // The header only: size and orientation before any pixel is decoded.
      meta = await sharp(copy.path, { limitInputPixels: false }).metadata();
    } catch {
      return { ok: false, reason: `${name} could not be read: the file is damaged. Please export it again.` };
    }
    const { width = 0, height = 0, orientation = 1 } = meta;
    if (width * height > MAX_IMAGE_PIXELS) {
      const mp = Math.round((width * height) / 1_000_000);
      return { ok: false, reason: `${name} is ${width} × ${height} pixels (${mp} megapixels); the lab takes images up to ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.` };
    }
    const scan = (await digestOf(storage, key, kind, head.size)) ?? (await scanPhotoFile(copy.path, kind));
    if (expected.checksums.some((declared) => declared !== scan.checksum)) {
      return { ok: false, reason: `${name} did not arrive intact (its checksum differs from the file's). Please upload it again.` };
    }
    if (!scan.complete) return { ok: false, reason: cutOff(name) };
    // Width and height as the photo is seen: EXIF orientations 5 to 8 turn it a quarter.
    const turned = orientation >= 5;
    return {
      ok: true,
      kind,
      contentType: kind === 'png' ? 'image/png' : 'image/jpeg',
      size: head.size,
      checksum: scan.checksum,
      width: turned ? height : width,
      height: turned ? width : height,
    };
  } finally {
    await copy.release();
  }
}
