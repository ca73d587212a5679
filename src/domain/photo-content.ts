/**
 * What a photo is, judged by its bytes and never by its name (docs/lab-rules.md §5): JPEG or PNG, at most
 * 200 MB. The upload worker checks this before anything is sent; the server checks it again on
 * the stored object, with the same words.
 */
export type PhotoContentType = 'image/jpeg' | 'image/png';

/** Photos up to 200 MB each (docs/lab-rules.md §5; docs/upload-and-sync.md §1: 209,715,200 bytes). */
export const MAX_PHOTO_BYTES = 209_715_200;

/** Enough of a file's head to tell JPEG from PNG (PNG's signature is the longer, 8 bytes). */
export const SNIFF_BYTES = 8;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** JPEG (FF D8 FF) or PNG (its 8-byte signature) by the first bytes; null for anything else. */
export function sniffPhotoType(head: Uint8Array): PhotoContentType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => head[i] === b)) return 'image/png';
  return null;
}

/** The reason a file that is not a photo is rejected (the server's words for the same refusal). */
export const notAPhotoReason = (name: string) => `${name} is not a JPEG or PNG photo.`;

export const tooLargeReason = (name: string) => `${name} is larger than 200 MB. Photos can be at most 200 MB each.`;

export const emptyFileReason = (name: string) => `${name} is empty.`;

/** Why a file cannot be a photo before reading it (size only); null when it may be one. */
export function sizeRejection(name: string, size: number): string | null {
  if (size === 0) return emptyFileReason(name);
  if (size > MAX_PHOTO_BYTES) return tooLargeReason(name);
  return null;
}

export interface PixelSize {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u32be = (b: Uint8Array, i: number) => (((b[i] ?? 0) << 24) | ((b[i + 1] ?? 0) << 16) | ((b[i + 2] ?? 0) << 8) | (b[i + 3] ?? 0)) >>> 0;

export interface JpegSegment {
  marker: number;
  /** Where the segment's data starts (after marker and length), and where the segment ends. */
  dataStart: number;
  end: number;
}

/**
 * The marker segments at the head of a JPEG, up to the image data (start of scan). Stops quietly
 * at anything malformed or at the end of the bytes read: a head is a guess, never an error.
 */
export function* jpegSegments(head: Uint8Array): Generator<JpegSegment> {
  if (head[0] !== 0xff || head[1] !== 0xd8) return;
  let i = 2;
  while (i + 4 <= head.length) {
    if (head[i] !== 0xff) return;
    const marker = head[i + 1] ?? 0;
    // Fill bytes: any number of FF may precede a marker.
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    // Markers without a length (RSTn, TEM).
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    // Start of scan or end of image: the metadata segments are behind us.
    if (marker === 0xda || marker === 0xd9) return;
    const length = u16be(head, i + 2);
    if (length < 2) return;
    yield { marker, dataStart: i + 4, end: i + 2 + length };
    i += 2 + length;
  }
}

/**
 * The pixel size from a file's head: PNG's IHDR, or the first JPEG start-of-frame marker found
 * before the image data. Null when the head does not reach it (a JPEG whose metadata is larger
 * than the bytes read) or the bytes are not an image.
 */
export function readPixelSize(head: Uint8Array): PixelSize | null {
  const type = sniffPhotoType(head);
  if (type === 'image/png') {
    // Signature (8), IHDR length (4), "IHDR" (4), then width and height.
    if (head.length < 24) return null;
    return { width: u32be(head, 16), height: u32be(head, 20) };
  }
  if (type !== 'image/jpeg') return null;
  for (const { marker, dataStart } of jpegSegments(head)) {
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (dataStart + 5 > head.length) return null;
      return { width: u16be(head, dataStart + 3), height: u16be(head, dataStart + 1) };
    }
  }
  return null;
}
