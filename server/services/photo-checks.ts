import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { ACCEPTED_PHOTO_KINDS, SNIFF_BYTES, kindRefusal, sniffFileType, type FileKind } from '../../src/domain/file-types.ts';
import type { Storage } from '../adapters/storage/storage.ts';
import { MAX_PHOTO_BYTES, inspectImage } from './file-checks.ts';

/**
 * The check a stored photo passes before it joins an order (UPLOAD-CONTRACT.md step 4): size
 * within the limit and as declared, JPEG or PNG by its bytes, SHA-256 as declared, and an image
 * sharp can read to its last byte without exceeding the pixel limit (file-checks.ts). Cheap
 * checks first, so a wrong file is refused before it is read whole.
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

/** SHA-256 of a file, streamed (a 200 MB photo is never held in memory). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

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
  const wrongKind = kindRefusal(sniffFileType(await storage.readStart(key, SNIFF_BYTES)), ACCEPTED_PHOTO_KINDS, name);
  if (wrongKind) return { ok: false, reason: wrongKind };

  const copy = await storage.localCopy(key);
  try {
    const checksum = await sha256OfFile(copy.path);
    if (expected.checksums.some((declared) => declared !== checksum)) {
      return { ok: false, reason: `${name} did not arrive intact (its checksum differs from the file's). Please upload it again.` };
    }
    const image = await inspectImage(copy.path, name);
    if (!image.ok) return image;
    // Width and height as the photo is seen: EXIF orientations 5 to 8 turn it a quarter.
    const { orientation = 1 } = await sharp(copy.path, { limitInputPixels: false }).metadata();
    const turned = orientation >= 5;
    return {
      ok: true,
      kind: image.kind,
      contentType: image.kind === 'png' ? 'image/png' : 'image/jpeg',
      size: head.size,
      checksum,
      width: turned ? image.height : image.width,
      height: turned ? image.width : image.height,
    };
  } finally {
    await copy.release();
  }
}
