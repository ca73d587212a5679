import { toCents, type Cents } from './money.ts';
import { finishingCents } from './pricing.ts';
import type { ProofColourSpace } from './paper-profile.ts';

/** The lab's products as the wire carries them (docs/api.md §9) and the rules of choosing them. */

export const FINISHING_CATEGORIES = [
  'none',
  'mount',
  'four_ply_mat',
  'eight_ply_mat',
  'contemporary_frame',
  'hardwood_frame',
  'desktop_frame',
  'hardwood_float_canvas_frame',
] as const;
export type FinishingCategory = (typeof FINISHING_CATEGORIES)[number];

export const CATEGORY_NAMES: Record<FinishingCategory, string> = {
  none: 'NONE',
  mount: 'MOUNT',
  four_ply_mat: '4-PLY MAT',
  eight_ply_mat: '8-PLY MAT',
  contemporary_frame: 'CONTEMPORARY FRAME',
  hardwood_frame: 'HARDWOOD FRAME',
  desktop_frame: 'DESKTOP FRAME',
  hardwood_float_canvas_frame: 'HARDWOOD FLOAT CANVAS FRAME',
};

/** The choices that follow a finishing service, in the order they are made. */
export const DETAIL_KINDS = ['mat_class', 'mount_color', 'frame_mat', 'glass', 'stain'] as const;
export type DetailKind = (typeof DETAIL_KINDS)[number];

export const DETAIL_LABELS: Record<DetailKind, string> = {
  mat_class: 'MAT CLASS',
  mount_color: 'MOUNT COLOR',
  frame_mat: 'FRAME MAT',
  glass: 'ACRYLIC',
  stain: 'FRAME STAIN',
};

const STAINED: readonly FinishingCategory[] = ['hardwood_frame', 'hardwood_float_canvas_frame', 'desktop_frame'];
export const isFrame = (c: FinishingCategory) => c === 'contemporary_frame' || STAINED.includes(c);
export const isMat = (c: FinishingCategory) => c === 'four_ply_mat' || c === 'eight_ply_mat';
/** Stain is chosen for hardwood, hardwood float canvas and desktop frames (docs/orders.md §4). */
export const isStained = (c: FinishingCategory) => STAINED.includes(c);

/**
 * The details a category needs before it can be priced or ordered (docs/orders.md §4): mats only
 * their size; a mount its colour; a frame its mat and glass; a hardwood frame also its stain.
 */
export function requiredDetails(category: FinishingCategory): DetailKind[] {
  if (category === 'mount') return ['mount_color'];
  if (category === 'contemporary_frame') return ['frame_mat', 'glass'];
  if (isStained(category)) return ['frame_mat', 'glass', 'stain'];
  return [];
}

/**
 * Details a category may take but does not need: a mat's class (the builder's MAT CLASS). The
 * calculator asks only for the mat size (docs/orders.md §4), so an unchosen class prices as the
 * standard one, which costs nothing extra.
 */
export function optionalDetails(category: FinishingCategory): DetailKind[] {
  return isMat(category) ? ['mat_class'] : [];
}

/** Every detail a category takes, needed ones first. */
export const allowedDetails = (category: FinishingCategory): DetailKind[] => [...requiredDetails(category), ...optionalDetails(category)];

/** The label of the first finishing choice (docs/orders.md §2, builder). */
export function optionOneLabel(category: FinishingCategory): string {
  if (isMat(category)) return 'MAT SIZE';
  if (isFrame(category)) return 'FRAME WOOD';
  if (category === 'mount') return 'MOUNT SIZE';
  return 'FINISHING DETAIL';
}

/**
 * What the second finishing choice picks: MAT CLASS (mats), FRAME MAT (frames), MOUNT COLOR
 * (mount); null for NONE. The builder shows it after the first, never for mats (docs/orders.md §4).
 */
export function optionTwoKind(category: FinishingCategory): DetailKind | null {
  if (isMat(category)) return 'mat_class';
  if (isFrame(category)) return 'frame_mat';
  if (category === 'mount') return 'mount_color';
  return null;
}

/** The label of the second finishing choice (docs/orders.md §2, builder), or null for NONE. */
export function optionTwoLabel(category: FinishingCategory): string | null {
  const kind = optionTwoKind(category);
  return kind ? DETAIL_LABELS[kind] : null;
}

/** The calculator's groups (docs/orders.md §3) and the categories each gathers. */
export const CALCULATOR_GROUPS = {
  four_ply_mat: ['four_ply_mat'],
  eight_ply_mat: ['eight_ply_mat'],
  mount: ['mount'],
  standard_frame: ['contemporary_frame'],
  premium_frame: ['hardwood_frame', 'desktop_frame', 'hardwood_float_canvas_frame'],
} as const satisfies Record<string, readonly FinishingCategory[]>;
export type CalculatorGroup = keyof typeof CALCULATOR_GROUPS;
export const CALCULATOR_GROUP_NAMES: Record<CalculatorGroup, string> = {
  four_ply_mat: '4-PLY MAT',
  eight_ply_mat: '8-PLY MAT',
  mount: 'MOUNT',
  standard_frame: 'STANDARD FRAME',
  premium_frame: 'PREMIUM FRAME',
};

/** Border values of docs/orders.md §3; any other value reads as no border. */
export const BORDERS = [
  { value: 'none', label: 'No border' },
  { value: 'one_eighth', label: '1/8" border' },
  { value: 'one_fourth', label: '1/4" border' },
  { value: 'one_half', label: '1/2" border' },
  { value: 'three_fourths', label: '3/4" border' },
  { value: 'one', label: '1" border' },
  { value: 'one_and_one_half', label: '1 1/2" border' },
  { value: 'two', label: '2" border' },
  { value: 'three', label: '3" border' },
] as const;
export type BorderValue = (typeof BORDERS)[number]['value'];
export const borderLabel = (value: string): string => BORDERS.find((b) => b.value === value)?.label ?? 'No border';

/** Frame profile strings as the lab writes them, sent in their short code (docs/orders.md §9): the wire's formatted_frame_profile. */
export function formatFrameProfile(profile: string | null): string | null {
  if (profile === null) return null;
  if (profile === ' 3/4') return '-.75';
  if (profile === ' 1.5') return '-1.5';
  return profile.trim();
}

/** The short codes' widths as the lab says them (a frame's name reads `Walnut 1.5"`, `Black Maple 3/4"`). */
const PROFILE_WIDTHS: Record<string, string> = { '-.75': '3/4', '-1.5': '1.5' };

/**
 * A frame's profile as a person reads it, '1.5" profile', from the catalogue's string or its
 * short code: the one wording of the cart, the order detail and the receipt.
 */
export function frameProfileWords(profile: string | null): string | null {
  const code = formatFrameProfile(profile);
  if (!code) return null;
  const width = PROFILE_WIDTHS[code] ?? code;
  return /^[\d./ ]+$/.test(width) ? `${width}" profile` : `${width} profile`;
}

/**
 * A line item's finishing as one line of text, 'HARDWOOD FRAME: Walnut 1.5" · 1.5" profile ·
 * No Mat', or 'None': the cart review and the order detail alike.
 */
export function finishingWords(category: FinishingCategory, service: string | null, profile: string | null, details: readonly (string | null)[]): string {
  if (category === 'none') return 'None';
  const parts = [service, frameProfileWords(profile), ...details].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  const name = CATEGORY_NAMES[category];
  return parts.length ? `${name}: ${parts.join(' · ')}` : name;
}

// Wire shapes: money in dollars with 2 decimals.
export interface PrintSizePricing {
  guid: string;
  name: string;
  price: number;
  x_aspect: number;
  y_aspect: number;
}

/** A paper's ICC output profile as the catalogue sends it (issue 35). */
export interface PaperIccProfile {
  url: string;
  key: string;
  name: string;
  colour_space: ProofColourSpace;
}

export interface Paper {
  guid: string;
  name: string;
  allows_border: boolean;
  /** null: the lab attached no profile, so the screens offer no proof. */
  icc_profile: PaperIccProfile | null;
  print_size_pricings: PrintSizePricing[];
}

export interface DetailPricing {
  guid: string;
  name: string;
  price: number;
  is_default: boolean;
}

export interface FinishingService {
  guid: string;
  name: string;
  price: number;
  finishing_category: FinishingCategory;
  frame_profile: string | null;
  formatted_frame_profile: string | null;
  detail_pricings: Partial<Record<DetailKind, DetailPricing[]>>;
}

export interface FinishingGroup {
  finishing_category: FinishingCategory;
  services: FinishingService[];
}

/** A chosen finishing: the service and one detail guid per kind it needs. */
export interface FinishingChoice {
  service: FinishingService;
  details: Partial<Record<DetailKind, string>>;
}

export const INCOMPLETE_FINISHING_MESSAGE =
  'Please select all finishing details (mat size, mount size and color, or frame size, profile, acrylic and stain) or set the finishing category to NONE.';

/** Why a finishing choice cannot be priced yet, or null when it is complete and consistent. */
export function finishingChoiceProblem(choice: FinishingChoice): string | null {
  for (const kind of requiredDetails(choice.service.finishing_category)) {
    const guid = choice.details[kind];
    if (!guid) return INCOMPLETE_FINISHING_MESSAGE;
    if (!choice.service.detail_pricings[kind]?.some((d) => d.guid === guid)) return `That ${DETAIL_LABELS[kind]} is not offered with ${choice.service.name}.`;
  }
  for (const kind of DETAIL_KINDS) {
    const guid = choice.details[kind];
    if (!guid) continue;
    if (!allowedDetails(choice.service.finishing_category).includes(kind)) {
      return `${CATEGORY_NAMES[choice.service.finishing_category]} takes no ${DETAIL_LABELS[kind]}.`;
    }
    if (!choice.service.detail_pricings[kind]?.some((d) => d.guid === guid)) return `That ${DETAIL_LABELS[kind]} is not offered with ${choice.service.name}.`;
  }
  return null;
}

/** The finishing's price in cents: the service plus its chosen details. Throws when incomplete. */
export function finishingChoiceCents(choice: FinishingChoice): Cents {
  const problem = finishingChoiceProblem(choice);
  if (problem) throw new RangeError(problem);
  const chosen = allowedDetails(choice.service.finishing_category).filter((kind) => choice.details[kind]);
  const details = chosen.map((kind) => {
    const detail = choice.service.detail_pricings[kind]?.find((d) => d.guid === choice.details[kind]);
    return toCents(detail?.price ?? 0);
  });
  return finishingCents(toCents(choice.service.price), details);
}

/** Gathers a print size's finishing groups into the calculator's groups. */
export function calculatorGroups(groups: FinishingGroup[]): Partial<Record<CalculatorGroup, FinishingService[]>> {
  const out: Partial<Record<CalculatorGroup, FinishingService[]>> = {};
  for (const [group, categories] of Object.entries(CALCULATOR_GROUPS) as [CalculatorGroup, readonly FinishingCategory[]][]) {
    const services = groups.filter((g) => categories.includes(g.finishing_category)).flatMap((g) => g.services);
    if (services.length) out[group] = services;
  }
  return out;
}

/** The least a finishing service costs once complete: its price plus the cheapest of each needed detail. */
export function cheapestFinishingCents(service: FinishingService): Cents {
  const details = requiredDetails(service.finishing_category).map((kind) =>
    Math.min(...(service.detail_pricings[kind] ?? [{ price: 0 }]).map((d) => toCents(d.price))),
  );
  return finishingCents(toCents(service.price), details);
}
