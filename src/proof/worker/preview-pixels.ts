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

/** The proofed pixels as a PNG: lossless, so the screen shows exactly what LittleCMS computed. */
export async function proofImage(rgba: Uint8Array, width: number, height: number): Promise<Blob> {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser has no 2D canvas in workers, so it cannot proof.');
  ctx.putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer as ArrayBuffer, rgba.byteOffset, rgba.byteLength), width, height), 0, 0);
  return canvas.convertToBlob({ type: 'image/png' });
}
