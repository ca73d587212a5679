/**
 * The preview a camera embeds in a JPEG's EXIF block (APP1, IFD1: JPEGInterchangeFormat and
 * JPEGInterchangeFormatLength), found in the file's first bytes. Decoding that small JPEG takes a
 * few milliseconds where decoding the photo itself takes hundreds,
 * so the upload worker shows it first. Pure and defensive: any byte string gives an answer or
 * null, never an exception.
 */
import { jpegSegments } from '../../domain/photo-content.ts';

/** APP1 is at most 64 KB and comes first; 128 KB covers it with any APP0/APP2 before it. */
export const EXIF_HEAD_BYTES = 128 * 1024;

export interface ExifThumbnail {
  /** Where the embedded JPEG starts in the file, in bytes. */
  offset: number;
  length: number;
  /** EXIF orientation of the photo (1..8; 1 = as stored), which applies to its preview too. */
  orientation: number;
}

const TAG_ORIENTATION = 0x0112;
const TAG_THUMB_OFFSET = 0x0201;
const TAG_THUMB_LENGTH = 0x0202;
const TYPE_SHORT = 3;
const TYPE_LONG = 4;
const EXIF_ID = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"

interface Reader {
  u16(at: number): number | null;
  u32(at: number): number | null;
}

function reader(b: Uint8Array, little: boolean, end: number): Reader {
  const byte = (at: number) => (at >= 0 && at < end ? (b[at] ?? null) : null);
  return {
    u16(at) {
      const x = byte(at);
      const y = byte(at + 1);
      if (x === null || y === null) return null;
      return little ? x | (y << 8) : (x << 8) | y;
    },
    u32(at) {
      const lo = this.u16(little ? at : at + 2);
      const hi = this.u16(little ? at + 2 : at);
      if (lo === null || hi === null) return null;
      return hi * 0x10000 + lo;
    },
  };
}

/** The entries of one IFD as tag → numeric value (SHORT or LONG, count 1), and the next IFD's offset. */
function readIfd(r: Reader, tiff: number, offset: number): { values: Map<number, number>; next: number } | null {
  const count = r.u16(tiff + offset);
  if (count === null || count > 1000) return null;
  const values = new Map<number, number>();
  for (let n = 0; n < count; n++) {
    const entry = tiff + offset + 2 + n * 12;
    const tag = r.u16(entry);
    const type = r.u16(entry + 2);
    const items = r.u32(entry + 4);
    if (tag === null || type === null || items === null) return null;
    if (items !== 1) continue;
    const value = type === TYPE_SHORT ? r.u16(entry + 8) : type === TYPE_LONG ? r.u32(entry + 8) : null;
    if (value !== null) values.set(tag, value);
  }
  const next = r.u32(tiff + offset + 2 + count * 12);
  if (next === null) return null;
  return { values, next };
}

/** The EXIF block of one APP1 segment: its thumbnail, or null. */
function thumbnailInApp1(head: Uint8Array, dataStart: number, segmentEnd: number): ExifThumbnail | null {
  if (!EXIF_ID.every((b, i) => head[dataStart + i] === b)) return null;
  const tiff = dataStart + EXIF_ID.length;
  const end = Math.min(segmentEnd, head.length);
  const order = ((head[tiff] ?? 0) << 8) | (head[tiff + 1] ?? 0);
  if (order !== 0x4949 && order !== 0x4d4d) return null;
  const r = reader(head, order === 0x4949, end);
  if (r.u16(tiff + 2) !== 0x2a) return null;
  const ifd0Offset = r.u32(tiff + 4);
  if (ifd0Offset === null || ifd0Offset < 8) return null;
  const ifd0 = readIfd(r, tiff, ifd0Offset);
  // IFD1 follows IFD0; 0 means there is none. An offset back into IFD0 would be a loop.
  if (!ifd0 || ifd0.next === 0 || ifd0.next === ifd0Offset) return null;
  const ifd1 = readIfd(r, tiff, ifd0.next);
  if (!ifd1) return null;
  const start = ifd1.values.get(TAG_THUMB_OFFSET);
  const length = ifd1.values.get(TAG_THUMB_LENGTH);
  if (start === undefined || length === undefined || length < 4) return null;
  const offset = tiff + start;
  // The preview lives inside the APP1 segment; anything else is a broken or hostile file.
  if (offset + length > segmentEnd) return null;
  if (offset + 1 < head.length && (head[offset] !== 0xff || head[offset + 1] !== 0xd8)) return null;
  const rawOrientation = ifd0.values.get(TAG_ORIENTATION) ?? 1;
  const orientation = rawOrientation >= 1 && rawOrientation <= 8 ? rawOrientation : 1;
  return { offset, length, orientation };
}

/** Finds the embedded EXIF preview in the first bytes of a JPEG (EXIF_HEAD_BYTES are enough). */
export function findExifThumbnail(head: Uint8Array): ExifThumbnail | null {
  for (const segment of jpegSegments(head)) {
    if (segment.marker !== 0xe1) continue;
    const found = thumbnailInApp1(head, segment.dataStart, segment.end);
    if (found) return found;
  }
  return null;
}
