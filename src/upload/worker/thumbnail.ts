import { EXIF_HEAD_BYTES, findExifThumbnail } from '../shared/exif-thumbnail.ts';
import { readPixelSize, type PixelSize } from '../../domain/photo-content.ts';
import type { ThumbnailResult } from '../shared/protocol.ts';

/** JPEG at 0.8 keeps a 400 px thumbnail at tens of KB with no loss a tile shows. */
const THUMBNAIL_QUALITY = 0.8;

type Ctx = OffscreenCanvasRenderingContext2D;

/** Draws `image` upright onto a new canvas, applying an EXIF orientation (1..8). */
function drawUpright(image: ImageBitmap, orientation: number): OffscreenCanvas {
  const { width, height } = image;
  const turned = orientation >= 5;
  const canvas = new OffscreenCanvas(turned ? height : width, turned ? width : height);
  const ctx = canvas.getContext('2d') as Ctx;
  // The EXIF orientation matrices (TIFF 6.0 tag 274), as every viewer applies them.
  const matrices: Record<number, [number, number, number, number, number, number]> = {
    2: [-1, 0, 0, 1, width, 0],
    3: [-1, 0, 0, -1, width, height],
    4: [1, 0, 0, -1, 0, height],
    5: [0, 1, 1, 0, 0, 0],
    6: [0, 1, -1, 0, height, 0],
    7: [0, -1, -1, 0, height, width],
    8: [0, -1, 1, 0, 0, width],
  };
  const m = matrices[orientation];
  if (m) ctx.transform(...m);
  ctx.drawImage(image, 0, 0);
  return canvas;
}

/** The camera's own preview: a slice of the file, decoded (a few ms) to check it and turn it upright. */
async function exifPreview(file: Blob, head: Uint8Array): Promise<Omit<ThumbnailResult, 'ms'> | null> {
  const found = findExifThumbnail(head);
  if (!found) return null;
  const slice = file.slice(found.offset, found.offset + found.length, 'image/jpeg');
  let image: ImageBitmap;
  try {
    image = await createImageBitmap(slice);
  } catch {
    return null;
  }
  try {
    if (found.orientation === 1) return { blob: slice, source: 'exif', width: image.width, height: image.height };
    const canvas = drawUpright(image, found.orientation);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: THUMBNAIL_QUALITY });
    return { blob, source: 'exif', width: canvas.width, height: canvas.height };
  } finally {
    image.close();
  }
}

/** The resize that fits the photo's long side in `side` px, keeping its shape. */
function resizeFor(size: PixelSize | null, side: number): ImageBitmapOptions {
  const base: ImageBitmapOptions = { resizeQuality: 'medium', imageOrientation: 'from-image' };
  if (!size) return { ...base, resizeWidth: side };
  if (size.width >= size.height) return { ...base, resizeWidth: Math.min(side, size.width) };
  return { ...base, resizeHeight: Math.min(side, size.height) };
}

/**
 * A resized decode, all in the worker: createImageBitmap decodes straight to the small size
 * (no full-size canvas, which costs more time and a photo-sized bitmap), then an
 * OffscreenCanvas encodes it. On white, so a transparent PNG does not turn black.
 */
async function decodedThumbnail(file: Blob, head: Uint8Array, side: number): Promise<Omit<ThumbnailResult, 'ms'> | null> {
  let image: ImageBitmap;
  try {
    image = await createImageBitmap(file, resizeFor(readPixelSize(head), side));
  } catch {
    // Not decodable here (truncated, or a format the browser lacks): the server decides.
    return null;
  }
  try {
    const canvas = new OffscreenCanvas(image.width, image.height);
    const ctx = canvas.getContext('2d') as Ctx;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(image, 0, 0);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: THUMBNAIL_QUALITY });
    return { blob, source: 'decoded', width: canvas.width, height: canvas.height };
  } finally {
    image.close();
  }
}

/** The first bytes of a file, where the type, the size and the EXIF preview are. */
export async function readHead(file: Blob): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, EXIF_HEAD_BYTES).arrayBuffer());
}

export async function makeThumbnail(file: Blob, head: Uint8Array, side: number, preferExif = true): Promise<ThumbnailResult | null> {
  const started = performance.now();
  const made = (preferExif ? await exifPreview(file, head) : null) ?? (await decodedThumbnail(file, head, side));
  return made ? { ...made, ms: performance.now() - started } : null;
}
