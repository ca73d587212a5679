import { open } from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';
import { ACCEPTED_PHOTO_KINDS, SNIFF_BYTES, TAIL_BYTES, kindRefusal, sniffFileType, truncationRefusal, type FileKind } from './file-types.ts';
import { validationError } from '../http/errors.ts';

/**
 * The checks every uploaded file passes before the lab keeps it (docs/lab-rules.md §5), in one place for
 * the certificate and the photo upload: the type by magic bytes, a complete file, and for images
 * a size in pixels that cannot exhaust memory when decoded (a decompression bomb).
 */

// 300 megapixels: above the largest medium-format backs (150 MP) and big stitched panoramas,
// far below what a small PNG can claim (a 50 KB PNG can declare 20,000 × 20,000 pixels, 1.6 GB
// once decoded to RGBA).
export const MAX_IMAGE_PIXELS = 300_000_000;
// Decoding to this box is enough to read every byte of the image (JPEG shrink-on-load still
// reads the whole scan), and cheap.
const PROBE_BOX = 64;

export type FileVerdict = { ok: true; kind: FileKind } | { ok: false; reason: string };
export type ImageVerdict = { ok: true; kind: FileKind; width: number; height: number } | { ok: false; reason: string };

/** Reads parts of a stored object: its first and its last bytes. */
export interface ObjectReader {
  readStart(bytes: number): Promise<Buffer>;
  readEnd(bytes: number): Promise<Buffer>;
}

/** Type and completeness from the object's ends, without reading the whole of it. */
export async function checkFileEnds(reader: ObjectReader, accepted: readonly FileKind[], what: string): Promise<FileVerdict> {
  const found = sniffFileType(await reader.readStart(SNIFF_BYTES));
  const wrongKind = kindRefusal(found, accepted, what);
  if (wrongKind) return { ok: false, reason: wrongKind };
  const kind = found as FileKind;
  const cutOff = truncationRefusal(kind, await reader.readEnd(TAIL_BYTES));
  return cutOff ? { ok: false, reason: cutOff } : { ok: true, kind };
}

/**
 * A photo (a file path or a buffer): JPEG or PNG by content, at most MAX_IMAGE_PIXELS, and
 * decodable to its last byte. Reads and decodes the whole image: call it from a background job,
 * never on a request (docs/performance-notes.md §8).
 */
export async function inspectImage(input: string | Buffer, what = 'A photo'): Promise<ImageVerdict> {
  const head = typeof input === 'string' ? await readHead(input) : input.subarray(0, SNIFF_BYTES);
  const wrongKind = kindRefusal(sniffFileType(head), ACCEPTED_PHOTO_KINDS, what);
  if (wrongKind) return { ok: false, reason: wrongKind };
  let meta: Metadata;
  try {
    // The header only: the size is read before any pixel is decoded.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, reason: `${what} could not be read: the file is damaged. Please export it again.` };
  }
  const kind: FileKind = meta.format === 'png' ? 'png' : 'jpeg';
  const { width = 0, height = 0 } = meta;
  if (width * height > MAX_IMAGE_PIXELS) {
    const mp = Math.round((width * height) / 1_000_000);
    return { ok: false, reason: `${what} is ${width} × ${height} pixels (${mp} megapixels); the lab takes images up to ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.` };
  }
  try {
    await sharp(input, { failOn: 'truncated', limitInputPixels: MAX_IMAGE_PIXELS }).resize(PROBE_BOX, PROBE_BOX, { fit: 'inside' }).toBuffer();
  } catch {
    return { ok: false, reason: `${what} is incomplete or damaged: the upload may have been cut off. Please upload it again.` };
  }
  return { ok: true, kind, width, height };
}

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A verdict as the API's 422 with the reason, for request handlers. */
export function refuseUnless<T extends FileVerdict | ImageVerdict>(verdict: T): Extract<T, { ok: true }> {
  if (!verdict.ok) throw validationError(verdict.reason);
  return verdict as Extract<T, { ok: true }>;
}
