import type { PrintSizePricing } from '../contract/catalogue.ts';
import type { BorderValue, FinishingCategory } from './catalogue.ts';
import { ownValue } from './collections.ts';
import { startingCrop, startsFlipped, type CropArea } from './crop.ts';
import type { PhotoNotes } from './notes.ts';
import type { PixelSize } from './print-size.ts';
import { DEFAULT_QUANTITY } from './quantity.ts';

/**
 * The order builder's choices (docs/orders.md §3 Selections), kept as guids so they can be stored on
 * the device and passed as navigation state. The spec's finishingPricing and
 * finishingDetailPricing are not stored: they follow from the guids and the catalogue
 * (finishingChoice in builder-gating.ts), so they can never disagree with them.
 */
export interface Selections {
  /** Selected photo guids, in the order they were chosen. */
  photos: readonly string[];
  /** paperPricing */
  paperGuid: string | null;
  /** printSizePricing */
  printSizeGuid: string | null;
  printBorder: BorderValue;
  /** null until chosen; then 'none' or a category the server offers. */
  finishingCategory: FinishingCategory | null;
  /** The finishing service: the MAT SIZE, FRAME WOOD or MOUNT SIZE chosen. */
  finishingOptionOne: string | null;
  /** Its first detail: the FRAME MAT or MOUNT COLOR chosen (never shown for mats). */
  finishingOptionTwo: string | null;
  /** The glass (ACRYLIC) detail of a frame. */
  frameGlass: string | null;
  /** The FRAME STAIN detail of a hardwood, float or desktop frame. */
  frameStain: string | null;
  qty: number;
  /** Notes by photo guid, or under 'ALL'. */
  notes: PhotoNotes;
  /** Crops the photographer made, by photo guid; a photo without one uses its starting crop. */
  crops: Readonly<Record<string, CropArea>>;
  /** Orientations the photographer chose, by photo guid; otherwise the photo's own. */
  flipped: Readonly<Record<string, boolean>>;
}

export const INITIAL_SELECTIONS: Selections = Object.freeze({
  photos: [],
  paperGuid: null,
  printSizeGuid: null,
  printBorder: 'none',
  finishingCategory: null,
  finishingOptionOne: null,
  finishingOptionTwo: null,
  frameGlass: null,
  frameStain: null,
  qty: DEFAULT_QUANTITY,
  notes: {},
  crops: {},
  flipped: {},
});

/** The finishing part of the selections, all unset: what changing paper or print size leaves. */
export const NO_FINISHING = Object.freeze({
  finishingCategory: null,
  finishingOptionOne: null,
  finishingOptionTwo: null,
  frameGlass: null,
  frameStain: null,
}) satisfies Partial<Selections>;

/** A photo as the crop needs it: its guid and, once known, its pixel size. */
export interface CroppablePhoto {
  guid: string;
  width: number | null;
  height: number | null;
}

const pixelSize = (photo: CroppablePhoto): PixelSize | null =>
  photo.width && photo.height && photo.width > 0 && photo.height > 0 ? { width: photo.width, height: photo.height } : null;

/** Whether a photo's crop is flipped: as the photographer chose, else matching the photo's shape. */
export function isFlipped(s: Selections, photo: CroppablePhoto, size: Pick<PrintSizePricing, 'x_aspect' | 'y_aspect'>): boolean {
  const chosen = ownValue(s.flipped, photo.guid);
  if (chosen !== undefined) return chosen;
  const pixels = pixelSize(photo);
  return pixels ? startsFlipped(pixels, size) : false;
}

/** The crop a photo is added with: the one made, else the largest centred crop, else the whole photo. */
export function photoCrop(s: Selections, photo: CroppablePhoto, paperName: string, size: Pick<PrintSizePricing, 'x_aspect' | 'y_aspect'>): CropArea {
  return ownValue(s.crops, photo.guid) ?? startingCrop(pixelSize(photo), paperName, size, isFlipped(s, photo, size));
}
