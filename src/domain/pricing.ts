import type { Cents } from './money.ts';

/**
 * Every price rule of the lab in one place (docs/lab-rules.md §3): the calculator, the builder, the cart,
 * checkout and the server call these; the server's figure is the authority.
 */

/** Flat shipping per order (docs/orders.md §9: 'All orders are charged $10 for shipping'). */
export const SHIPPING_CENTS: Cents = 1000;

/** The lab's price for boutique packaging (gift boxing and tissue), once per order. */
export const BOUTIQUE_PACKAGING_CENTS: Cents = 1500;

/** A discount code's worth, as the lab stores it (percent 1–100, or a fixed amount in cents). */
export type DiscountRule = { kind: 'percent'; percent: number } | { kind: 'amount'; amountCents: Cents };

/**
 * What a discount code takes off a subtotal before limits: a percent rounded to the cent (half
 * up), or the fixed amount. orderTotals then keeps it within the subtotal.
 */
export function discountCents(rule: DiscountRule | null, subtotalCents: Cents): Cents {
  if (!rule) return 0;
  if (rule.kind === 'amount') return Math.max(0, rule.amountCents);
  return Math.round((Math.max(0, subtotalCents) * rule.percent) / 100);
}

export interface LinePrice {
  printCents: Cents;
  /** The finishing service plus every chosen detail (mat, colour, glass, stain). */
  finishingCents: Cents;
  quantity: number;
}

/** (print price + finishing price) × quantity. */
export function linePriceCents(line: LinePrice): Cents {
  if (!Number.isInteger(line.quantity) || line.quantity < 1) throw new RangeError('quantity must be a whole number of 1 or more');
  return (line.printCents + line.finishingCents) * line.quantity;
}

export const finishingCents = (servicePriceCents: Cents, detailPricesCents: Cents[]): Cents =>
  detailPricesCents.reduce((sum, p) => sum + p, servicePriceCents);

export interface OrderPriceInput {
  lines: LinePrice[];
  /** The discount the code is worth before limits. */
  discountCents: Cents;
  /** The credit the photographer asks to apply. */
  creditRequestedCents: Cents;
  /** What the photographer has (the credit applied never exceeds it). */
  creditAvailableCents: Cents;
  localPickup: boolean;
  boutiquePackagingCents: Cents;
}

export interface OrderTotals {
  subtotal: Cents;
  discount: Cents;
  credit: Cents;
  shipping: Cents;
  boutique: Cents;
  total: Cents;
}

const clamp = (value: Cents, low: Cents, high: Cents) => Math.min(Math.max(value, low), high);

/**
 * subtotal − discount − credit + shipping + boutique packaging = total. The discount never
 * exceeds the subtotal; the credit never exceeds what is owed nor what is available; so the
 * total is never negative.
 */
export function orderTotals(input: OrderPriceInput): OrderTotals {
  const subtotal = input.lines.reduce((sum, line) => sum + linePriceCents(line), 0);
  const discount = clamp(input.discountCents, 0, subtotal);
  const shipping = input.localPickup ? 0 : SHIPPING_CENTS;
  const boutique = Math.max(0, input.boutiquePackagingCents);
  const owed = subtotal - discount + shipping + boutique;
  const credit = clamp(Math.min(input.creditRequestedCents, input.creditAvailableCents), 0, owed);
  return { subtotal, discount, credit, shipping, boutique, total: owed - credit };
}

/** What a referrer earns on a referred photographer's paid order: a share of its subtotal, to the cent. */
export function referralCreditCents(subtotalCents: Cents, percent: number): Cents {
  return Math.round((Math.max(0, subtotalCents) * percent) / 100);
}
