import type { PrintSizePricing } from '../contract/catalogue.ts';
import { isLandscape, parsePrintSize, type Inches, type PixelSize } from './print-size.ts';

/**
 * The crop of a photo for a print (docs/orders.md §5 Cropping): its aspect comes from the print size,
 * flipping the orientation inverts it, a 16x24 gallery wrap is cut from a 20x28 picture, deckled
 * circles crop round, and the values travel in percent with 2 decimals.
 */

/** A crop in percent of the photo (as react-easy-crop reports `croppedArea`), origin top left. */
export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The whole photo: what a line item carries when no crop was made (docs/orders.md §3, §9). */
export const DEFAULT_CROP: Readonly<CropArea> = Object.freeze({ x: 0, y: 0, width: 100, height: 100 });

export const GALLERY_WRAP = 'Canvas - Gallery Wrap';

/**
 * Print faces that are printed larger than they show. A gallery wrap folds the picture round the
 * stretcher bars, so the lab's 16x24 gallery wrap is printed as 20x28 (2" more each side) and the
 * crop must take the whole 20x28 (docs/orders.md §5 names this one size).
 */
const PRINTED_LARGER: readonly { paper: string; face: [number, number]; printed: [number, number] }[] = [
  { paper: GALLERY_WRAP, face: [16, 24], printed: [20, 28] },
];

/** The printed sides for a face of x by y on a paper, in the face's orientation. */
function printedSides(paperName: string, x: number, y: number): [number, number] {
  const [short, long] = x <= y ? [x, y] : [y, x];
  const rule = PRINTED_LARGER.find((r) => r.paper === paperName && r.face[0] === short && r.face[1] === long);
  if (!rule) return [x, y];
  return x <= y ? rule.printed : [rule.printed[1], rule.printed[0]];
}

/** Crop aspect (width / height) = x_aspect / y_aspect of the print size; flipped, its inverse. */
export function cropAspect(paperName: string, size: Pick<PrintSizePricing, 'x_aspect' | 'y_aspect'>, flipped: boolean): number {
  if (!(size.x_aspect > 0 && size.y_aspect > 0)) throw new RangeError('a print size needs positive x_aspect and y_aspect');
  const [x, y] = printedSides(paperName, size.x_aspect, size.y_aspect);
  return flipped ? y / x : x / y;
}

/** The inches the picture is printed at (the name's, or larger for a gallery wrap); null when the name is not 'WxH'. */
export function printedInches(paperName: string, sizeName: string): Inches | null {
  const face = parsePrintSize(sizeName);
  if (!face) return null;
  const [width, height] = printedSides(paperName, face.width, face.height);
  return { width, height };
}

/** Deckled circle papers, with or without border, are cut round: the cropper shows a round crop. */
export const cropShape = (paperName: string): 'rect' | 'round' => (/deckled circle/i.test(paperName) ? 'round' : 'rect');

/**
 * The crop options of an image (docs/orders.md §3 Image.cropOptions), for the cropper and for the
 * line-item edit's navigation state.
 */
export interface CropOptions {
  x_aspect: number;
  y_aspect: number;
  aspect: number;
  unit: '%';
  selectedPaper: string;
  shape: 'rect' | 'round';
  flipped: boolean;
}

export function cropOptions(paperName: string, size: Pick<PrintSizePricing, 'x_aspect' | 'y_aspect'>, flipped: boolean): CropOptions {
  return {
    x_aspect: size.x_aspect,
    y_aspect: size.y_aspect,
    aspect: cropAspect(paperName, size, flipped),
    unit: '%',
    selectedPaper: paperName,
    shape: cropShape(paperName),
    flipped,
  };
}

/**
 * Whether a photo starts flipped: a landscape photo gets a landscape print and a portrait one a
 * portrait print, so the first crop keeps as much of the picture as it can. Square photos or
 * square prints are never flipped.
 */
export function startsFlipped(photo: PixelSize, size: Pick<PrintSizePricing, 'x_aspect' | 'y_aspect'>): boolean {
  const printLandscape = size.x_aspect > size.y_aspect;
  const printPortrait = size.x_aspect < size.y_aspect;
  const photoPortrait = photo.width < photo.height;
  return (isLandscape(photo) && printPortrait) || (photoPortrait && printLandscape);
}

/** Crop values carry 2 decimals (docs/orders.md §5). */
export const round2 = (value: number): number => Math.round(value * 100) / 100;
// Rounding down keeps a computed crop inside the photo; the epsilon absorbs 33.33999… for 33.34.
const floor2 = (value: number): number => Math.floor(value * 100 + 1e-9) / 100;
/** The least crop side in percent: a crop never collapses to nothing, even for a very long panorama. */
const MIN_SIDE = 0.01;
const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/** A crop as the cropper reported it, clamped into the photo and rounded to 2 decimals. */
export function normaliseCrop(area: CropArea): CropArea {
  const fit = (position: number, side: number): [number, number] => {
    const p = round2(clamp(Number.isFinite(position) ? position : 0, 0, 100 - MIN_SIDE));
    const s = round2(clamp(Number.isFinite(side) ? side : 100, MIN_SIDE, round2(100 - p)));
    return [p, s];
  };
  const [x, width] = fit(area.x, area.width);
  const [y, height] = fit(area.y, area.height);
  return { x, y, width, height };
}

/** Why a crop sent by a client cannot be used, or null. The server checks every line item with it. */
export function cropProblem(area: CropArea): string | null {
  const values = [area.x, area.y, area.width, area.height];
  if (!values.every((v) => typeof v === 'number' && Number.isFinite(v))) return 'The crop must be given in numbers.';
  // A thousandth of a percent of slack for values rounded to 2 decimals on the way.
  const slack = 1e-3;
  const inside = area.x >= 0 && area.y >= 0 && area.width > 0 && area.height > 0 && area.x + area.width <= 100 + slack && area.y + area.height <= 100 + slack;
  return inside ? null : 'The crop must lie inside the photo (percent values from 0 to 100).';
}

/** The largest crop of the given aspect (width / height) centred on the photo. */
export function centredCrop(photo: PixelSize, aspect: number): CropArea {
  if (!(photo.width > 0 && photo.height > 0)) throw new RangeError('a photo needs a positive pixel size');
  if (!(aspect > 0 && Number.isFinite(aspect))) throw new RangeError('a crop aspect must be a positive number');
  const photoAspect = photo.width / photo.height;
  if (photoAspect > aspect) {
    const width = Math.max(MIN_SIDE, floor2((aspect / photoAspect) * 100));
    return { x: round2((100 - width) / 2), y: 0, width, height: 100 };
  }
  const height = Math.max(MIN_SIDE, floor2((photoAspect / aspect) * 100));
  return { x: 0, y: round2((100 - height) / 2), width: 100, height };
}

/**
 * The crop a photo starts with for a print size: the largest centred crop of its aspect, or the
 * whole photo while its pixel size is not known yet.
 */
export function startingCrop(photo: PixelSize | null, paperName: string, size: Pick<PrintSizePricing, 'x_aspect' | 'y_aspect'>, flipped: boolean): CropArea {
  if (!photo || !(photo.width > 0 && photo.height > 0)) return { ...DEFAULT_CROP };
  return centredCrop(photo, cropAspect(paperName, size, flipped));
}

/** A crop in whole pixels inside the photo, for cutting it out (sharp's extract takes these). */
export function cropPixels(photo: PixelSize, area: CropArea): { left: number; top: number; width: number; height: number } {
  const axis = (position: number, side: number, total: number): [number, number] => {
    const start = clamp(Math.round((position / 100) * total), 0, total - 1);
    return [start, clamp(Math.round((side / 100) * total), 1, total - start)];
  };
  const [left, width] = axis(area.x, area.width, photo.width);
  const [top, height] = axis(area.y, area.height, photo.height);
  return { left, top, width, height };
}
