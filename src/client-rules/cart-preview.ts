import { ownValue } from '../domain/collections.ts';
import { cropShape } from '../domain/crop.ts';
import { parsePrintSize, type PixelSize } from '../domain/print-size.ts';

/**
 * The cart preview (docs/orders.md §2, §9): a line item's cropped photo drawn with its paper's effect.
 * Frame profiles show through frameProfileWords (catalogue.ts).
 */

/** How a canvas wrap's edges look: the picture folded round (gallery), a colour, or the picture mirrored. */
export type WrapEffect = 'gallery' | 'white' | 'black' | 'mirror';

export const WRAP_EFFECTS: Readonly<Record<string, WrapEffect>> = Object.freeze({
  'Canvas - Gallery Wrap': 'gallery',
  'Canvas - White Wrap': 'white',
  'Canvas - Black Wrap': 'black',
  'Canvas - Mirror Wrap': 'mirror',
});

export type PreviewEffect = { kind: 'wrap'; wrap: WrapEffect } | { kind: 'circle' } | { kind: 'flat' };

/** The effect a paper is previewed with: its wrap, a circle for deckled circles, else a flat print. */
export function previewEffect(paperName: string): PreviewEffect {
  const wrap = ownValue(WRAP_EFFECTS, paperName);
  if (wrap) return { kind: 'wrap', wrap };
  return cropShape(paperName) === 'round' ? { kind: 'circle' } : { kind: 'flat' };
}

/** The wrap edge in canvas pixels grows with the print: its width in inches plus 4 (docs/orders.md §9). */
export const PREVIEW_BORDER_GROWTH = 4;

/** The drawn border of a print size ('16x24' → 20); null for a name that is not 'WxH'. */
export function previewBorderWidth(printSizeName: string): number | null {
  const inches = parsePrintSize(printSizeName);
  return inches ? inches.width + PREVIEW_BORDER_GROWTH : null;
}

/** Image previews are drawn at most this high (docs/orders.md §9). */
export const PREVIEW_MAX_HEIGHT_PX = 800;

/** The drawn size of an image: its own, scaled down (never up) to the preview's height, whole pixels. */
export function previewSize(image: PixelSize, maxHeight = PREVIEW_MAX_HEIGHT_PX): PixelSize {
  const scale = Math.min(1, maxHeight / image.height);
  return { width: Math.max(1, Math.round(image.width * scale)), height: Math.max(1, Math.round(image.height * scale)) };
}

/** The query parameter of /cart-preview/:id naming the line item shown (the review's PREVIEW links set it). */
export const PREVIEW_ITEM_PARAM = 'item';
