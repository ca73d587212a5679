import type { FinishingGroup, FinishingService, Paper } from '../contract/catalogue.ts';
import { CATEGORY_NAMES, DETAIL_LABELS, FINISHING_CATEGORIES, allowedDetails, isFrame, isMat, isStained, optionOneLabel, optionTwoKind, type DetailKind, type FinishingCategory, type FinishingChoice } from './catalogue.ts';
import { toCents, type Cents } from './money.ts';
import type { Selections } from './builder-selections.ts';

/**
 * Which of the builder's dropdowns can be used and which show (docs/orders.md §4 Builder gating):
 * paper needs a selected photo, print size needs paper, finishing needs paper and size; the
 * finishing dropdowns appear one after another as each is chosen.
 */

export const SELECT_PHOTO_FIRST = 'Please select at least one photo to begin.';
export const PAPER_FIRST = 'You must select a Paper Type first.';
export const PAPER_AND_SIZE_FIRST = 'You must select a Paper Type and Print Size first.';

/** The paper that must be finished: NONE is not offered with it (docs/orders.md §4). */
export const BRUSHED_CANVAS = 'Brushed Canvas';

export type SidebarField = 'paper' | 'printSize' | 'border' | 'finishing';

/** Why a sidebar dropdown refuses to open (the alert it shows), or null when it can be used. */
export function blockedBecause(field: SidebarField, s: Selections): string | null {
  if (!s.photos.length) return SELECT_PHOTO_FIRST;
  if (field === 'paper') return null;
  if (!s.paperGuid) return field === 'finishing' ? PAPER_AND_SIZE_FIRST : PAPER_FIRST;
  if (field === 'finishing' && !s.printSizeGuid) return PAPER_AND_SIZE_FIRST;
  return null;
}

/** Border choices show only for papers that take a border. */
export const offersBorder = (paper: Pick<Paper, 'allows_border'> | null): boolean => Boolean(paper?.allows_border);

/** The services the server offered for a category at the chosen print size. */
export const servicesOf = (groups: readonly FinishingGroup[] | null, category: FinishingCategory | null): FinishingService[] =>
  groups?.find((g) => g.finishing_category === category)?.services ?? [];

/**
 * The categories the FINISHING dropdown lists: NONE first (except for Brushed Canvas), then each
 * category for which the server returned at least one service, in the catalogue's order.
 */
export function offeredCategories(paper: Pick<Paper, 'name'> | null, groups: readonly FinishingGroup[] | null): FinishingCategory[] {
  const offered = FINISHING_CATEGORIES.filter((c) => c !== 'none' && servicesOf(groups, c).length > 0);
  return paper?.name === BRUSHED_CANVAS ? offered : ['none', ...offered];
}

/** The selection fields that hold finishing choices, in the order they are made. */
export type FinishingField = 'finishingCategory' | 'finishingOptionOne' | 'finishingOptionTwo' | 'frameGlass' | 'frameStain';
type DetailField = 'finishingOptionTwo' | 'frameGlass' | 'frameStain';

/** Which detail each detail field holds for a category; empty for NONE and for mats' hidden class. */
export function detailFields(category: FinishingCategory | null): [DetailField, DetailKind][] {
  if (!category || category === 'none') return [];
  const fields: [DetailField, DetailKind][] = [];
  const two = optionTwoKind(category);
  if (two && !isMat(category)) fields.push(['finishingOptionTwo', two]);
  if (isFrame(category)) fields.push(['frameGlass', 'glass']);
  if (isStained(category)) fields.push(['frameStain', 'stain']);
  return fields;
}

/**
 * Whether a finishing field shows, given the choices before it: option one once a category other
 * than NONE is chosen; option two after option one (not for mats); glass for frames once the
 * frame mat is chosen; stain for hardwood, float and desktop frames once the glass is chosen.
 */
export function showsFinishingField(field: FinishingField, s: Selections): boolean {
  const category = s.finishingCategory;
  if (field === 'finishingCategory') return true;
  if (!category || category === 'none') return false;
  if (field === 'finishingOptionOne') return true;
  const fields = detailFields(category);
  const index = fields.findIndex(([f]) => f === field);
  if (index < 0 || !s.finishingOptionOne) return false;
  const before = fields[index - 1];
  return !before || Boolean(s[before[0]]);
}

export interface DropdownOption {
  value: string;
  label: string;
  priceCents: Cents;
  isDefault: boolean;
}

export interface FinishingDropdown {
  field: FinishingField;
  label: string;
  options: DropdownOption[];
  value: string | null;
}

/** The label of the FINISHING category dropdown. */
export const FINISHING_LABEL = 'FINISHING';

/** The finishing dropdowns the sidebar shows, in order, each with its label, options and value. */
export function finishingDropdowns(s: Selections, paper: Pick<Paper, 'name'> | null, groups: readonly FinishingGroup[] | null): FinishingDropdown[] {
  const category = s.finishingCategory;
  const dropdowns: FinishingDropdown[] = [
    {
      field: 'finishingCategory',
      label: FINISHING_LABEL,
      options: offeredCategories(paper, groups).map((c) => ({ value: c, label: CATEGORY_NAMES[c], priceCents: 0, isDefault: c === 'none' })),
      value: category,
    },
  ];
  if (!category || !showsFinishingField('finishingOptionOne', s)) return dropdowns;
  const services = servicesOf(groups, category);
  dropdowns.push({
    field: 'finishingOptionOne',
    label: optionOneLabel(category),
    options: services.map((v) => ({ value: v.guid, label: v.name, priceCents: toCents(v.price), isDefault: false })),
    value: s.finishingOptionOne,
  });
  const service = services.find((v) => v.guid === s.finishingOptionOne);
  for (const [field, kind] of detailFields(category)) {
    if (!service || !showsFinishingField(field, s)) break;
    dropdowns.push({
      field,
      label: DETAIL_LABELS[kind],
      options: (service.detail_pricings[kind] ?? []).map((d) => ({ value: d.guid, label: d.name, priceCents: toCents(d.price), isDefault: d.is_default })),
      value: s[field],
    });
  }
  return dropdowns;
}

/** Menu sizes of the finishing dropdowns (docs/orders.md §2): 400 px high (50 px for MOUNT SIZE), 150 px wide. */
export const DROPDOWN_MENU_HEIGHT_PX = 400;
export const MOUNT_SIZE_MENU_HEIGHT_PX = 50;
export const DROPDOWN_WIDTH_PX = 150;
export const menuHeightPx = (label: string): number => (label === 'MOUNT SIZE' ? MOUNT_SIZE_MENU_HEIGHT_PX : DROPDOWN_MENU_HEIGHT_PX);

/**
 * The chosen finishing as the pricing rules take it (the spec's finishingPricing and
 * finishingDetailPricing): null for no finishing, or while option one is not chosen or no longer
 * offered at this print size.
 */
export function finishingChoice(s: Selections, groups: readonly FinishingGroup[] | null): FinishingChoice | null {
  const category = s.finishingCategory;
  if (!category || category === 'none' || !s.finishingOptionOne) return null;
  const service = servicesOf(groups, category).find((v) => v.guid === s.finishingOptionOne);
  if (!service) return null;
  const details: FinishingChoice['details'] = {};
  for (const [field, kind] of detailFields(category)) {
    const guid = s[field];
    if (guid) details[kind] = guid;
  }
  return { service, details };
}

/** The chosen detail guids in the order the category takes them (what a line item sends). */
export const chosenDetailGuids = (choice: FinishingChoice | null): string[] =>
  choice ? allowedDetails(choice.service.finishing_category).flatMap((kind) => choice.details[kind] ?? []) : [];
