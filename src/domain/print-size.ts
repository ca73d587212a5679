/**
 * Print sizes are named by their inches, width first ('8x10', '16x24', '11x14'): the crop, the
 * resolution check and the cart preview read the inches from the name.
 */

export interface Inches {
  width: number;
  height: number;
}

/** A photo's size in pixels, as it is seen (EXIF orientation applied). */
export interface PixelSize {
  width: number;
  height: number;
}

// Digits with an optional fraction, either side of an x; spaces and inch marks tolerated, since a
// lab's own price list may write '8 x 10' or '8"x10"'.
const SIZE_NAME = /^\s*(\d+(?:\.\d+)?)\s*"?\s*[xX×]\s*(\d+(?:\.\d+)?)\s*"?\s*$/;

/** '8x10' → { width: 8, height: 10 }; null for a name that is not 'WxH' with both sides above 0. */
export function parsePrintSize(name: string): Inches | null {
  const match = SIZE_NAME.exec(name);
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** The longer and the shorter side, whatever the orientation. */
export const longShort = (size: { width: number; height: number }): [long: number, short: number] =>
  size.width >= size.height ? [size.width, size.height] : [size.height, size.width];

/** True when a photo or a print is wider than tall. */
export const isLandscape = (size: { width: number; height: number }): boolean => size.width > size.height;
