import { formatMoney, toCents, type Cents } from './money.ts';
import type { OrderTotals } from './pricing.ts';
import { SHIPPING_SPEED_NAMES, isShippingSpeed } from './shipping-speeds.ts';

/**
 * The all-in cost (issue 34): every figure the charge is made of, in one list of lines that the
 * final review, the order detail and the receipt mail all show, so no figure appears for the first
 * time on a card statement. The figures are the lab's (order-figures.ts); this only words them.
 */

export type AllInLabel = 'PRINTS' | 'FINISHING' | 'SUBTOTAL' | 'DISCOUNT' | 'CREDIT' | 'SHIPPING' | 'DROP-SHIP FEE' | 'BOUTIQUE PACKAGING' | 'TOTAL';

/** The lab's figures of an order, in cents: the totals pricing.ts computes. */
export type AllInFigures = OrderTotals;

/** How the order leaves the lab: `shipping_method` on the wire, and whether it goes to the photographer's client. */
export interface AllInShipping {
  method: string;
  dropShip: boolean;
}

export interface AllInLine {
  label: AllInLabel;
  /** The receipt's words for the label. */
  words: string;
  /** What the line is about: the shipping speed's name, LOCAL PICKUP. */
  detail: string | null;
  /** Signed as it counts towards the total: discount and credit are negative. */
  cents: Cents;
  text: string;
}

/** The speed's name, or LOCAL PICKUP. */
export function shippingDetail(method: string): string {
  if (method === 'local_pickup') return 'LOCAL PICKUP';
  return isShippingSpeed(method) ? SHIPPING_SPEED_NAMES[method] : method.replace(/_/g, ' ').toUpperCase();
}

/**
 * Prints, finishing, subtotal, discount, credit, shipping with its speed, the drop-ship fee (on a
 * drop-ship only), boutique packaging and the total.
 */
export function allInCostLines(f: AllInFigures, shipping: AllInShipping): AllInLine[] {
  const line = (label: AllInLabel, words: string, cents: Cents, detail: string | null = null): AllInLine => ({ label, words, detail, cents, text: formatMoney(cents) });
  return [
    line('PRINTS', 'Prints', f.prints),
    line('FINISHING', 'Finishing', f.finishing),
    line('SUBTOTAL', 'Subtotal', f.subtotal),
    line('DISCOUNT', 'Discount', -f.discount),
    line('CREDIT', 'Credit applied', -f.credit),
    line('SHIPPING', 'Shipping', f.shipping, shippingDetail(shipping.method)),
    ...(shipping.dropShip ? [line('DROP-SHIP FEE', 'Drop-ship fee', f.dropShip)] : []),
    line('BOUTIQUE PACKAGING', 'Boutique packaging', f.boutique),
    line('TOTAL', 'Total', f.total),
  ];
}

/** The order's figures as the wire carries them (dollars). */
export interface AllInWire {
  prints_total?: number | undefined;
  finishing_total?: number | undefined;
  subtotal: number;
  discount: number;
  credit_applied: number;
  shipping_total: number;
  shipping_method?: string | undefined;
  local_pickup?: boolean | undefined;
  drop_ship_fee?: number | undefined;
  drop_ship_address?: unknown;
  boutique_shipping_price: number;
  total: number;
}

/** The lines from the lab's answer (an answer without the breakdown counts its subtotal as prints). */
export function allInCostFromWire(o: AllInWire): AllInLine[] {
  const subtotal = toCents(o.subtotal);
  const finishing = toCents(o.finishing_total ?? 0);
  return allInCostLines(
    {
      prints: o.prints_total === undefined ? subtotal - finishing : toCents(o.prints_total),
      finishing,
      subtotal,
      discount: toCents(o.discount),
      credit: toCents(o.credit_applied),
      shipping: toCents(o.shipping_total),
      dropShip: toCents(o.drop_ship_fee ?? 0),
      boutique: toCents(o.boutique_shipping_price),
      total: toCents(o.total),
    },
    { method: o.local_pickup ? 'local_pickup' : (o.shipping_method ?? 'standard'), dropShip: Boolean(o.drop_ship_address) },
  );
}
