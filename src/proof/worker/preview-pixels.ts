/**
 * The preview's pixels as its file holds them, and its embedded profile. The browser decodes
 * with no colour conversion (`colorSpaceConversion: 'none'`), so an Adobe RGB or Display P3
 * preview keeps its own values and the proof converts them through its own profile; left to
 * itself the browser would convert them to sRGB first and clip what sRGB cannot hold.
 */
import { iccFromJpeg } from './photo-profile.ts';

// An embedded profile sits in the JPEG's head; a megabyte covers even a large one (a few dozen
// 64 KB APP2 pieces) along with the EXIF block and its camera preview.
const HEAD_BYTES = 1024 * 1024;

export interface PreviewPixels {
  rgba: Uint8ClampedArray;
  width: number;
  height: number;
  /** The embedded ICC profile, or null (sRGB). */
  icc: Uint8Array | null;
}

/** The preview from a URL (through the service worker's cache when offline) or a Blob. */
export async function previewBlob(source: Blob | string): Promise<Blob> {
  if (typeof source !== 'string') return source;
  const answer = await fetch(source);
  if (!answer.ok) throw new Error(`The preview could not be fetched for the proof (HTTP ${answer.status}).`);
  return answer.blob();
}

export async function previewPixels(blob: Blob): Promise<PreviewPixels> {
  const head = new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer());
  let image: ImageBitmap;
  try {
    image = await createImageBitmap(blob, { colorSpaceConversion: 'none', imageOrientation: 'from-image' });
  } catch {
    throw new Error('The preview is not an image this browser can decode, so it cannot be proofed.');
  }
  try {
    const { width, height } = image;
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('This browser has no 2D canvas in workers, so it cannot proof.');
    ctx.drawImage(image, 0, 0);
    return { rgba: ctx.getImageData(0, 0, width, height).data, width, height, icc: iccFromJpeg(head) };
  } finally {
    image.close();
  }
}

// A BMP of RGBA pixels as they lie in memory: the 14-byte file header, then a BITMAPV4HEADER
// (108 bytes) whose bit masks name the bytes R, G, B, A of each little-endian word.
const FILE_HEADER = 14;
const INFO_HEADER = 108;
const BMP_HEADER = FILE_HEADER + INFO_HEADER;
const BI_BITFIELDS = 3;
// The header's colour space: 'sRGB', the display's, as the proof's values are.
const LCS_SRGB = 0x73524742;
// 72 dpi in pixels per metre, which nothing reads but the header must carry.
const PIXELS_PER_METRE = 2835;

/**
 * The proofed pixels as a BMP file: lossless, so the screen shows exactly the proof, and made by
 * putting a header before the pixels rather than compressing them as a PNG would.
 */
export function proofFile(rgba: Uint8Array, width: number, height: number): Blob {
  const header = new Uint8Array(BMP_HEADER);
  const head = new DataView(header.buffer);
  header[0] = 0x42; // 'B'
  header[1] = 0x4d; // 'M'
  head.setUint32(2, BMP_HEADER + rgba.length, true);
  head.setUint32(10, BMP_HEADER, true);
  head.setUint32(14, INFO_HEADER, true);
  head.setInt32(18, width, true);
  // A negative height: rows top to bottom, as the pixels are.
  head.setInt32(22, -height, true);
  head.setUint16(26, 1, true);
  head.setUint16(28, 32, true);
  head.setUint32(30, BI_BITFIELDS, true);
  head.setUint32(34, rgba.length, true);
  head.setInt32(38, PIXELS_PER_METRE, true);
  head.setInt32(42, PIXELS_PER_METRE, true);
  head.setUint32(54, 0x000000ff, true);
  head.setUint32(58, 0x0000ff00, true);
  head.setUint32(62, 0x00ff0000, true);
  head.setUint32(66, 0xff000000, true);
  head.setUint32(70, LCS_SRGB, true);
  // The Blob copies both parts once, into one file.
  return new Blob([header, rgba as Uint8Array<ArrayBuffer>], { type: 'image/bmp' });
}
