import { BORDERS, allowedDetails, borderLabel, finishingWords, isFrame, type BorderValue, type FinishingCategory } from '../domain/catalogue.ts';
import { detailFields } from '../domain/builder-gating.ts';
import { INITIAL_SELECTIONS, type Selections } from '../domain/builder-selections.ts';
import { normaliseCrop } from '../domain/crop.ts';
import { toCents, type Cents } from '../domain/money.ts';
import type { ServerLineItem } from '../contract/line-items.ts';
import { isLandscape, parsePrintSize } from '../domain/print-size.ts';

/**
 * A line item as the builder, the review and the preview use it, flattened from the server's
 * (docs/orders.md §3, both shapes; the server's is ServerLineItem of src/contract/line-items.ts).
 */

/** The builder's flattened line item. Prices are cents (the spec's printPrice, finishingPrice, totalPrice). */
export interface BuilderLineItem {
  guid: string;
  labOrderGuid: string;
  photoGuid: string;
  /** The cropped image when the lab made it, else the photo. */
  photoUrl: string;
  imageName: string;
  externalId: string | null;
  notes: string;
  internalNotes: string;
  printSize: string;
  printSizeGuid: string;
  /** The border as shown ('1/4" border'); unknown values show as 'No border'. */
  printBorder: string;
  printBorderRaw: string;
  paper: string;
  paperGuid: string;
  printPriceCents: Cents;
  finishingCategory: FinishingCategory;
  finishingService: string | null;
  finishingServiceGuid: string | null;
  finishingServiceDetailGuid: string | null;
  finishingServiceDetailTwoGuid: string | null;
  finishingServiceDetailThreeGuid: string | null;
  finishingDetailOne: string | null;
  finishingDetailTwo: string | null;
  finishingDetailThree: string | null;
  frameProfile: string | null;
  frameGlassName: string | null;
  finishingPriceCents: Cents;
  cropAttributes: { x: number; y: number; height: number; width: number; aspect: number | null };
  quantity: number;
  totalPriceCents: Cents;
}

export function flattenLineItem(item: ServerLineItem, labOrderGuid: string): BuilderLineItem {
  const f = item.finishing_service;
  const category = f?.finishing_category ?? 'none';
  const size = item.print_size_attributes;
  const crop = item.photograph_attributes;
  return {
    guid: item.guid,
    labOrderGuid,
    photoGuid: item.photograph_guid,
    photoUrl: item.photograph_cropped_url ?? item.photograph_url,
    imageName: item.photo_file_name,
    externalId: item.external_id,
    notes: item.notes ?? '',
    internalNotes: item.internal_notes ?? '',
    printSize: size.print_size,
    printSizeGuid: size.print_size_guid,
    printBorder: borderLabel(item.print_border),
    printBorderRaw: item.print_border,
    paper: size.paper,
    paperGuid: size.paper_guid,
    printPriceCents: toCents(size.price),
    finishingCategory: category,
    finishingService: f?.finishing_service ?? null,
    finishingServiceGuid: f?.finishing_service_guid ?? null,
    finishingServiceDetailGuid: f?.finishing_service_detail_guid ?? null,
    finishingServiceDetailTwoGuid: f?.finishing_service_detail_two_guid ?? null,
    finishingServiceDetailThreeGuid: f?.finishing_service_detail_three_guid ?? null,
    finishingDetailOne: f?.formatted_detail_one ?? null,
    finishingDetailTwo: f?.formatted_detail_two ?? null,
    finishingDetailThree: f?.formatted_detail_three ?? null,
    frameProfile: f?.formatted_frame_profile ?? null,
    // A frame's second detail is its glass.
    frameGlassName: isFrame(category) ? (f?.formatted_detail_two ?? null) : null,
    finishingPriceCents: f ? toCents(f.price) : 0,
    cropAttributes: { x: crop.crop_x, y: crop.crop_y, height: crop.crop_h, width: crop.crop_w, aspect: crop.aspect },
    quantity: item.quantity,
    totalPriceCents: toCents(item.subtotal),
  };
}

const isBorderValue = (value: string): value is BorderValue => BORDERS.some((b) => b.value === value);

/**
 * The selections that edit a line item (the line-item edit screen's starting point). A mat's
 * class is not carried: the builder never shows it (docs/orders.md §4), so UPDATE prices the
 * standard class, as the builder would have.
 */
export function selectionsFromLineItem(item: BuilderLineItem): Selections {
  const category = item.finishingCategory;
  const slots = [item.finishingServiceDetailGuid, item.finishingServiceDetailTwoGuid, item.finishingServiceDetailThreeGuid];
  const order = allowedDetails(category);
  const details: Partial<Selections> = {};
  for (const [field, kind] of detailFields(category)) details[field] = slots[order.indexOf(kind)] ?? null;
  const { x, y, width, height, aspect } = item.cropAttributes;
  const face = parsePrintSize(item.printSize);
  // The orientation it was cropped in: a crop whose shape disagrees with the size's was flipped.
  const flipped = aspect !== null && face !== null && face.width !== face.height && aspect !== 1 && aspect > 1 !== isLandscape(face);
  return {
    ...INITIAL_SELECTIONS,
    photos: [item.photoGuid],
    paperGuid: item.paperGuid,
    printSizeGuid: item.printSizeGuid,
    printBorder: isBorderValue(item.printBorderRaw) ? item.printBorderRaw : 'none',
    finishingCategory: category,
    finishingOptionOne: category === 'none' ? null : item.finishingServiceGuid,
    finishingOptionTwo: null,
    frameGlass: null,
    frameStain: null,
    ...details,
    qty: item.quantity,
    notes: item.notes ? { [item.photoGuid]: item.notes } : {},
    crops: { [item.photoGuid]: normaliseCrop({ x, y, width, height }) },
    flipped: { [item.photoGuid]: flipped },
  };
}

/** The finishing of a device's line item as one line of text (finishingWords). */
export function finishingText(
  item: Pick<BuilderLineItem, 'finishingCategory' | 'finishingService' | 'finishingDetailOne' | 'finishingDetailTwo' | 'finishingDetailThree' | 'frameProfile'>,
): string {
  return finishingWords(item.finishingCategory, item.finishingService, item.frameProfile, [item.finishingDetailOne, item.finishingDetailTwo, item.finishingDetailThree]);
}
