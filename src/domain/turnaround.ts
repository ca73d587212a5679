/**
 * Turnaround (issue 34): the business days the lab needs to make each product family, set in the
 * catalogue file. The families follow how the work moves through the lab, not the price list:
 * - prints: a photographic print, on any paper, printed and trimmed the same day or the next;
 * - mounted: a print mounted or matted, which waits for its mount to dry or its mat to be cut;
 * - canvas: a canvas paper, stretched and wrapped on bars, which must dry before it is wrapped;
 * - framed: any frame (a float frame around a canvas too), built and glazed to the piece's size.
 * An order ships when its slowest line is made, so its turnaround is the slowest family in it.
 */
export const PRODUCT_FAMILIES = ['prints', 'mounted', 'canvas', 'framed'] as const;
export type ProductFamily = (typeof PRODUCT_FAMILIES)[number];
export type Turnaround = Record<ProductFamily, number>;

export const PRODUCT_FAMILY_NAMES: Record<ProductFamily, string> = {
  prints: 'Photographic prints',
  mounted: 'Mounted and matted prints',
  canvas: 'Canvas',
  framed: 'Framed pieces',
};

/** What a professional lab quotes: prints in two business days, framing in about a week. */
export const DEFAULT_TURNAROUND: Turnaround = { prints: 2, mounted: 3, canvas: 4, framed: 6 };

// A week and a half: a family the lab needs longer for is a made-to-order product, not turnaround.
export const TURNAROUND_MAX_DAYS = 15;

/** What an order holds, as the order keeps it (has_frame, has_mount, …). */
export interface OrderContents {
  hasFrame: boolean;
  hasMount: boolean;
  hasMat: boolean;
  hasCanvas: boolean;
  hasPrints: boolean;
}

export function familiesOf(contents: OrderContents): ProductFamily[] {
  const families: ProductFamily[] = [];
  if (contents.hasPrints) families.push('prints');
  if (contents.hasMount || contents.hasMat) families.push('mounted');
  if (contents.hasCanvas) families.push('canvas');
  if (contents.hasFrame) families.push('framed');
  return families;
}

/** The order's turnaround: its slowest family's (an order of nothing yet counts as prints). */
export function orderTurnaroundDays(contents: OrderContents, turnaround: Turnaround): number {
  const families = familiesOf(contents);
  return Math.max(...(families.length ? families : (['prints'] as const)).map((f) => turnaround[f]));
}
