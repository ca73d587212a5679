/**
 * The colour profile a photo's JPEG carries: ICC.1 Annex B splits it over APP2 segments, each
 * "ICC_PROFILE\0", its sequence number (from 1) and the count, then a piece of the profile. The
 * proof reads it itself, since the browser decodes for it with no colour conversion (an Adobe RGB
 * or Display P3 photo must go through its own profile, not through the browser's guess).
 */
import { jpegSegments } from '../../domain/photo-content.ts';

const APP2 = 0xe2;
const ICC_MARK = [...'ICC_PROFILE'].map((c) => c.charCodeAt(0)).concat(0);
// The mark, then the piece's sequence number and the number of pieces.
const PIECE_HEADER = ICC_MARK.length + 2;

function hasMark(b: Uint8Array, at: number): boolean {
  return ICC_MARK.every((v, i) => b[at + i] === v);
}

/**
 * The embedded ICC profile's bytes, or null when the JPEG has none (or a piece is missing, in
 * which case the photo is taken as sRGB, as browsers and libvips take it).
 */
export function iccFromJpeg(head: Uint8Array): Uint8Array | null {
  const pieces = new Map<number, Uint8Array>();
  let count = 0;
  for (const { marker, dataStart, end } of jpegSegments(head)) {
    if (marker !== APP2 || end > head.length || end - dataStart < PIECE_HEADER || !hasMark(head, dataStart)) continue;
    const sequence = head[dataStart + ICC_MARK.length] ?? 0;
    count = head[dataStart + ICC_MARK.length + 1] ?? 0;
    pieces.set(sequence, head.subarray(dataStart + PIECE_HEADER, end));
  }
  if (!count || pieces.size !== count) return null;
  const ordered: Uint8Array[] = [];
  for (let s = 1; s <= count; s++) {
    const piece = pieces.get(s);
    if (!piece) return null;
    ordered.push(piece);
  }
  const total = ordered.reduce((n, p) => n + p.length, 0);
  const profile = new Uint8Array(total);
  let at = 0;
  for (const p of ordered) {
    profile.set(p, at);
    at += p.length;
  }
  return profile;
}

/** A short key for a profile's bytes (FNV-1a and the length): the transform cache's key. */
export function profileKey(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i] ?? 0;
    h = Math.imul(h, 0x01000193);
  }
  return `icc-${bytes.length}-${(h >>> 0).toString(16)}`;
}
