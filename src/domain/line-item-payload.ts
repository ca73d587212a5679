import { chosenDetailGuids } from './builder-gating.ts';
import type { Selections } from './builder-selections.ts';
import type { BorderValue, FinishingChoice } from './catalogue.ts';
import { chunk } from './collections.ts';
import { DEFAULT_CROP, normaliseCrop, type CropArea } from './crop.ts';
import { defaultNote } from './notes.ts';

/**
 * What the builder sends to create or update line items (docs/orders.md §3 Line item creation
 * payload), in batches of 30 (§9).
 */

/** Line items per POST (docs/orders.md §9): one request for a typical order, bounded bodies for large ones. */
export const LINE_ITEM_BATCH_SIZE = 30;

export interface LineItemPayload {
  /**
   * Made by the client: the line item keeps this guid on the device and on the server, so a
   * change made offline names the same row everywhere. Beyond the spec's shape.
   */
  guid: string;
  imageName: string;
  quantity: number;
  /** The print-size-pricing guid. */
  print_size: string;
  /** The finishing service guid; null for NONE. */
  finishing_service: string | null;
  /** The first detail guid (the spec's single field). */
  finishing_service_detail: string | null;
  /** Every chosen detail guid in the category's order (a frame has three); what the server prices. */
  finishing_service_details: string[];
  print_border: BorderValue;
  notes: string;
  source_photograph_guid: string;
  photograph: {
    source_photograph_guid: string;
    crop_x: number;
    crop_y: number;
    crop_h: number;
    crop_w: number;
    /** Empty by default; `aspect` (crop width / height) when the builder knows it. */
    photo_meta: Record<string, unknown>;
  };
}

export interface PayloadPhoto {
  guid: string;
  photo_file_name: string;
}

export interface LineItemPayloadInput {
  guid: string;
  photo: PayloadPhoto;
  selections: Pick<Selections, 'printSizeGuid' | 'qty' | 'notes'> & { printBorder?: BorderValue };
  /** finishingChoice(selections, groups): null for NONE. */
  finishing: FinishingChoice | null;
  /** The crop in percent; the whole photo by default. */
  crop?: CropArea;
  aspect?: number | null;
}

/** One photo's line item from the selections. Throws without a print size (the button needs one). */
export function lineItemPayload(input: LineItemPayloadInput): LineItemPayload {
  const { selections: s, photo, finishing } = input;
  if (!s.printSizeGuid) throw new RangeError('a line item needs a print size');
  const crop = normaliseCrop(input.crop ?? DEFAULT_CROP);
  const details = chosenDetailGuids(finishing);
  return {
    guid: input.guid,
    imageName: photo.photo_file_name,
    quantity: s.qty,
    print_size: s.printSizeGuid,
    finishing_service: finishing?.service.guid ?? null,
    finishing_service_detail: details[0] ?? null,
    finishing_service_details: details,
    print_border: s.printBorder ?? 'none',
    notes: defaultNote(s.notes, photo.guid),
    source_photograph_guid: photo.guid,
    photograph: {
      source_photograph_guid: photo.guid,
      crop_x: crop.x,
      crop_y: crop.y,
      crop_h: crop.height,
      crop_w: crop.width,
      photo_meta: input.aspect ? { aspect: input.aspect } : {},
    },
  };
}

/**
 * The line items of an ADD TO CART: one per selected photo, in the order they were selected, each
 * with its own crop and note.
 */
export function selectionPayloads(input: {
  selections: Selections;
  /** The order's photos (at least the selected ones). */
  photos: readonly PayloadPhoto[];
  finishing: FinishingChoice | null;
  cropOf: (photoGuid: string) => { crop: CropArea; aspect: number | null };
  newGuid: () => string;
}): LineItemPayload[] {
  const byGuid = new Map(input.photos.map((p) => [p.guid, p]));
  return input.selections.photos.map((photoGuid) => {
    const photo = byGuid.get(photoGuid);
    if (!photo) throw new RangeError(`the selected photo ${photoGuid} is not in the order`);
    const { crop, aspect } = input.cropOf(photoGuid);
    return lineItemPayload({ guid: input.newGuid(), photo, selections: input.selections, finishing: input.finishing, crop, aspect });
  });
}

/** The request bodies that post line items: { line_items: [...] } of at most 30 each, in order. */
export const lineItemBatches = <T>(items: readonly T[]): { line_items: T[] }[] =>
  chunk(items, LINE_ITEM_BATCH_SIZE).map((line_items) => ({ line_items }));
