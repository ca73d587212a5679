import type { FinishingGroup, Paper, PrintSizePricing } from '../contract/catalogue.ts';
import { INCOMPLETE_FINISHING_MESSAGE, finishingChoiceCents, finishingChoiceProblem } from './catalogue.ts';
import { BRUSHED_CANVAS, PAPER_AND_SIZE_FIRST, PAPER_FIRST, SELECT_PHOTO_FIRST, finishingChoice } from './builder-gating.ts';
import type { Selections } from './builder-selections.ts';
import { toCents, type Cents } from './money.ts';
import { linePriceCents } from './pricing.ts';
import type { ResolutionCheck } from './print-resolution.ts';

/** What ADD TO CART (or UPDATE) checks and asks before the selection goes into the cart (docs/orders.md §5). */

export const ADD_TO_CART = 'ADD TO CART';
export const UPDATE_LINE_ITEM = 'UPDATE';
export const ADDING_TO_CART = 'adding to cart...';
export const addToCartLabel = (editing: boolean): string => (editing ? UPDATE_LINE_ITEM : ADD_TO_CART);

/** The spec's alert for Brushed Canvas without finishing ('select finishing details like framing'). */
export const BRUSHED_CANVAS_NEEDS_FINISHING = 'Brushed Canvas must be finished: please select the finishing details, such as framing.';
export const FINISHING_NOT_OFFERED = 'That finishing is no longer offered for this print size. Please choose the finishing again.';
export const FINISHING_LOADING = 'The finishing options for this print size are still loading. Please try again in a moment.';

/** The dialog before the order's first line item. */
export const CROP_CHECK = Object.freeze({
  title: 'Are you sure?',
  message: 'WAIT! Before adding to cart, check your cropping selections on all photos.',
  checkCrop: 'Check Crop',
  looksGood: 'Looks Good',
});
/** 'Are you sure? WAIT! Before adding to cart, check your cropping selections on all photos.' */
export const CROP_CHECK_TEXT = `${CROP_CHECK.title} ${CROP_CHECK.message}`;

/** The button shows only once a print size is chosen. */
export const showsAddToCart = (s: Selections): boolean => s.printSizeGuid !== null;

/** Why the selection cannot go into the cart (the alert to show), or null when it can. */
export function addToCartProblem(s: Selections, paper: Pick<Paper, 'name'> | null, groups: readonly FinishingGroup[] | null): string | null {
  if (!s.photos.length) return SELECT_PHOTO_FIRST;
  if (!s.paperGuid || !paper) return PAPER_FIRST;
  if (!s.printSizeGuid) return PAPER_AND_SIZE_FIRST;
  const category = s.finishingCategory;
  if (!category || category === 'none') return paper.name === BRUSHED_CANVAS ? BRUSHED_CANVAS_NEEDS_FINISHING : null;
  if (!s.finishingOptionOne) return INCOMPLETE_FINISHING_MESSAGE;
  if (!groups) return FINISHING_LOADING;
  const choice = finishingChoice(s, groups);
  return choice ? finishingChoiceProblem(choice) : FINISHING_NOT_OFFERED;
}

/** The crop-check dialog comes before the order's first line item, never when updating one. */
export const needsCropCheck = (lineItemCount: number, editing: boolean): boolean => !editing && lineItemCount === 0;

export type AddToCartStep =
  | { kind: 'alert'; message: string }
  /** Show CROP_CHECK: Check Crop goes back to the crops; Looks Good asks again with cropCheckAnswered. */
  | { kind: 'confirmCrop' }
  /** A crop below PPI_CONFIRM_BELOW: confirm, then ask again with lowResolutionAccepted. */
  | { kind: 'confirmResolution'; message: string }
  | { kind: 'add' };

export interface AddToCartInput {
  selections: Selections;
  paper: Pick<Paper, 'name'> | null;
  groups: readonly FinishingGroup[] | null;
  lineItemCount: number;
  editing: boolean;
  /** Looks Good was answered in this attempt. */
  cropCheckAnswered: boolean;
  /** The low-resolution confirmation was accepted in this attempt. */
  lowResolutionAccepted: boolean;
  /** The worst resolution among the selected photos' crops (worstResolution), or null when unknown. */
  resolution: ResolutionCheck | null;
}

/**
 * The next step of pressing ADD TO CART: an alert, the crop check (first line item only), the
 * low-resolution confirmation, or adding. The crop check comes first, since checking the crops
 * may change the resolution.
 */
export function addToCartStep(input: AddToCartInput): AddToCartStep {
  const problem = addToCartProblem(input.selections, input.paper, input.groups);
  if (problem) return { kind: 'alert', message: problem };
  if (needsCropCheck(input.lineItemCount, input.editing) && !input.cropCheckAnswered) return { kind: 'confirmCrop' };
  if (input.resolution?.level === 'confirm' && input.resolution.message && !input.lowResolutionAccepted) {
    return { kind: 'confirmResolution', message: input.resolution.message };
  }
  return { kind: 'add' };
}

/**
 * What the selection costs: (print + finishing) × quantity for each selected photo; null while it
 * cannot be priced (no size, no photo, or finishing not complete).
 */
export function selectionCents(s: Selections, size: Pick<PrintSizePricing, 'price'> | null, groups: readonly FinishingGroup[] | null): Cents | null {
  if (!size || !s.photos.length) return null;
  const choice = finishingChoice(s, groups);
  const wantsFinishing = s.finishingCategory !== null && s.finishingCategory !== 'none';
  if (wantsFinishing && (!choice || finishingChoiceProblem(choice))) return null;
  const finishing = choice ? finishingChoiceCents(choice) : 0;
  return linePriceCents({ printCents: toCents(size.price), finishingCents: finishing, quantity: s.qty }) * s.photos.length;
}
