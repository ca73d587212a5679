import type { Paper } from '../../contract/catalogue.ts';
import type { BorderValue, FinishingCategory } from '../../domain/catalogue.ts';
import { blockedBecause, showsFinishingField, type FinishingField } from '../../domain/builder-gating.ts';
import { INITIAL_SELECTIONS, NO_FINISHING, type Selections } from '../../domain/builder-selections.ts';
import { normaliseCrop, type CropArea } from '../../domain/crop.ts';
import { NOTES_MAX, limitNote, noteKey } from '../../domain/notes.ts';
import { DEFAULT_QUANTITY, steppedQuantity, typedQuantity } from '../../domain/quantity.ts';

/**
 * The builder's choices as a reducer (docs/orders.md §4): what each change resets, and which changes a
 * blocked or hidden dropdown refuses. An action the rules refuse returns the same state object.
 */
export type BuilderAction =
  /** Clicking a photo toggles it. */
  | { type: 'togglePhoto'; photoGuid: string }
  /** SELECT ALL: the order's photos, in the order shown. */
  | { type: 'selectAllPhotos'; photoGuids: readonly string[] }
  /** RESET clears the photo selection; the choices but the quantity stay for the next photos. */
  | { type: 'resetPhotos' }
  | { type: 'paper'; paper: Pick<Paper, 'guid' | 'allows_border'> | null }
  | { type: 'printSize'; printSizeGuid: string | null }
  | { type: 'border'; border: BorderValue }
  | { type: 'finishingCategory'; category: FinishingCategory | null }
  /** MAT SIZE, FRAME WOOD, MOUNT SIZE: a finishing service guid. */
  | { type: 'finishingOptionOne'; guid: string | null }
  /** FRAME MAT or MOUNT COLOR: a detail guid of the chosen service. */
  | { type: 'finishingOptionTwo'; guid: string | null }
  | { type: 'frameGlass'; guid: string | null }
  | { type: 'frameStain'; guid: string | null }
  /** What the quantity box now holds. */
  | { type: 'quantityTyped'; text: string }
  /** The quantity arrows: +1 or -1. */
  | { type: 'quantityStep'; delta: number }
  /** The notes box: written to the one selected photo, else to 'ALL'. */
  | { type: 'notes'; text: string }
  /** The cropper reported a crop for a photo (percent). */
  | { type: 'crop'; photoGuid: string; crop: CropArea }
  /** The photographer flipped a photo's orientation: its crop starts again. */
  | { type: 'flip'; photoGuid: string; flipped: boolean }
  /** The selection went into the cart: selections clear. */
  | { type: 'added' }
  /** Editing a line item: its selections (selectionsFromLineItem). */
  | { type: 'load'; selections: Selections };

const without = <T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> => {
  const { [key]: _gone, ...rest } = record;
  return rest;
};

/** Everything below a finishing field is reset when it changes (details belong to the service chosen above them). */
const FINISHING_ORDER: FinishingField[] = ['finishingCategory', 'finishingOptionOne', 'finishingOptionTwo', 'frameGlass', 'frameStain'];
function setFinishing(s: Selections, field: FinishingField, value: string | null): Selections {
  if (blockedBecause('finishing', s) || !showsFinishingField(field, s)) return s;
  if (s[field] === value) return s;
  const next: Selections = { ...s, [field]: value };
  const index = FINISHING_ORDER.indexOf(field);
  // A new category or service invalidates every choice below it. A new detail keeps the details
  // after it (they are the same service's), but clearing one hides, and so clears, those after it.
  const resetFrom = index <= 1 || value === null ? index + 1 : FINISHING_ORDER.length;
  for (const below of FINISHING_ORDER.slice(resetFrom)) next[below] = null;
  return next;
}

export function builderReducer(s: Selections, action: BuilderAction): Selections {
  switch (action.type) {
    // A new selection of photos starts again at the default quantity: a quantity set for other
    // photos (even one whose ADD TO CART was refused) must not print these twice over.
    case 'togglePhoto':
      return { ...s, qty: DEFAULT_QUANTITY, photos: s.photos.includes(action.photoGuid) ? s.photos.filter((g) => g !== action.photoGuid) : [...s.photos, action.photoGuid] };
    case 'selectAllPhotos':
      return { ...s, qty: DEFAULT_QUANTITY, photos: [...new Set(action.photoGuids)] };
    case 'resetPhotos':
      return s.photos.length ? { ...s, qty: DEFAULT_QUANTITY, photos: [] } : s;
    case 'paper': {
      if (blockedBecause('paper', s)) return s;
      const guid = action.paper?.guid ?? null;
      if (guid === s.paperGuid) return s;
      // A new paper resets print size and all finishing; its crops start again (gallery wraps and
      // circles crop differently); a paper without borders prints none.
      return {
        ...s,
        ...NO_FINISHING,
        paperGuid: guid,
        printSizeGuid: null,
        printBorder: action.paper?.allows_border ? s.printBorder : 'none',
        crops: {},
        flipped: {},
      };
    }
    case 'printSize':
      if (blockedBecause('printSize', s) || action.printSizeGuid === s.printSizeGuid) return s;
      // A new size resets finishing (its options are that size's) and every crop (a new aspect).
      return { ...s, ...NO_FINISHING, printSizeGuid: action.printSizeGuid, crops: {}, flipped: {} };
    case 'border':
      return blockedBecause('border', s) || action.border === s.printBorder ? s : { ...s, printBorder: action.border };
    case 'finishingCategory':
      return setFinishing(s, 'finishingCategory', action.category);
    case 'finishingOptionOne':
    case 'finishingOptionTwo':
    case 'frameGlass':
    case 'frameStain':
      return setFinishing(s, action.type, action.guid);
    case 'quantityTyped':
    case 'quantityStep': {
      const qty = action.type === 'quantityTyped' ? typedQuantity(s.qty, action.text) : steppedQuantity(s.qty, action.delta);
      return qty === s.qty ? s : { ...s, qty };
    }
    case 'notes':
      return { ...s, notes: { ...s.notes, [noteKey(s.photos)]: limitNote(action.text, NOTES_MAX) } };
    case 'crop':
      return { ...s, crops: { ...s.crops, [action.photoGuid]: normaliseCrop(action.crop) } };
    case 'flip':
      return { ...s, flipped: { ...s.flipped, [action.photoGuid]: action.flipped }, crops: without(s.crops, action.photoGuid) };
    case 'added':
      return INITIAL_SELECTIONS;
    case 'load':
      return action.selections;
  }
}
