import { printedInches, type CropArea } from './crop.ts';
import { longShort, type Inches, type PixelSize } from './print-size.ts';

/**
 * How sharp a print will be: the pixels of the crop spread over the inches of the print
 * (effective pixels per inch). Not in the spec; no lab's web tool warns about it, and a soft
 * print found only when it arrives costs the photographer a reprint and a week.
 */

/**
 * Below this the builder warns. Lab guidance: 300 ppi is ideal at reading distance, 200 ppi is
 * still acceptable (most viewers see no difference on lustre or canvas), below that softness
 * starts to show on close inspection.
 */
export const PPI_WARN_BELOW = 200;

/**
 * Below this the builder asks for confirmation before adding to the cart: under 100 ppi a print
 * looks visibly soft or pixelated at any normal viewing distance.
 */
export const PPI_CONFIRM_BELOW = 100;

/**
 * Effective pixels per inch of a crop printed at a size. The long side of the crop maps to the
 * long side of the print (the crop's orientation follows the print's); when the crop's aspect
 * differs from the print's (the whole photo before any crop was made), the worse of the two
 * sides counts, since the lab must enlarge that far to fill the print.
 */
export function effectivePpi(photo: PixelSize, crop: CropArea, print: Inches): number {
  if (!(photo.width > 0 && photo.height > 0)) throw new RangeError('a photo needs a positive pixel size');
  if (!(print.width > 0 && print.height > 0)) throw new RangeError('a print needs positive inches');
  const cropPx = { width: (crop.width / 100) * photo.width, height: (crop.height / 100) * photo.height };
  const [longPx, shortPx] = longShort(cropPx);
  const [longIn, shortIn] = longShort(print);
  return Math.min(longPx / longIn, shortPx / shortIn);
}

export type ResolutionLevel = 'ok' | 'warn' | 'confirm';

export interface ResolutionCheck {
  /** Whole pixels per inch, as shown. */
  ppi: number;
  level: ResolutionLevel;
  /** What the builder shows on the crop and the line item; null when the resolution is fine. */
  message: string | null;
}

/** '181 ppi' */
export const formatPpi = (ppi: number): string => `${Math.floor(ppi)} ppi`;

export const lowResolutionWarning = (ppi: number, sizeName: string): string =>
  `Low resolution: this crop prints at ${formatPpi(ppi)} at ${sizeName} (${PPI_WARN_BELOW} ppi or more looks sharp). ` +
  'A looser crop or a smaller print size will look sharper.';

export const lowResolutionConfirmation = (ppi: number, sizeName: string): string =>
  `Very low resolution: this crop prints at only ${formatPpi(ppi)} at ${sizeName}, below ${PPI_CONFIRM_BELOW} ppi, ` +
  'so the print will look visibly soft or pixelated. Add it to the cart anyway?';

/**
 * The level of a figure. Levels compare the whole ppi that is shown, so '199 ppi' always warns
 * and '200 ppi' never does.
 */
export function resolutionCheck(ppi: number, sizeName: string): ResolutionCheck {
  const shown = Math.floor(ppi);
  if (shown < PPI_CONFIRM_BELOW) return { ppi: shown, level: 'confirm', message: lowResolutionConfirmation(ppi, sizeName) };
  if (shown < PPI_WARN_BELOW) return { ppi: shown, level: 'warn', message: lowResolutionWarning(ppi, sizeName) };
  return { ppi: shown, level: 'ok', message: null };
}

/** The worst of several checks (several photos added at once): the one with the fewest ppi. */
export function worstResolution(checks: readonly (ResolutionCheck | null)[]): ResolutionCheck | null {
  let worst: ResolutionCheck | null = null;
  for (const check of checks) if (check && (!worst || check.ppi < worst.ppi)) worst = check;
  return worst;
}

/**
 * The check for one photo's crop on a paper and print size; null while the photo's pixel size is
 * unknown or the size name is not 'WxH' (nothing to warn about that could be trusted).
 */
export function cropResolution(photo: PixelSize | null, crop: CropArea, paperName: string, sizeName: string): ResolutionCheck | null {
  const print = printedInches(paperName, sizeName);
  if (!photo || !(photo.width > 0 && photo.height > 0) || !print) return null;
  return resolutionCheck(effectivePpi(photo, crop, print), sizeName);
}
