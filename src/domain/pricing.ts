import type { Cents } from './money.ts';
import { DEFAULT_SHIPPING_SPEED_CENTS } from './shipping-speeds.ts';

/**
 * Every price rule of the lab in one place (docs/lab-rules.md §3): the calculator, the builder, the cart,
 * checkout and the server call these; the server's figure is the authority.
 */

/**
 * Standard shipping when the catalogue names no price (docs/orders.md §9: 'All orders are charged
 * $10 for shipping'); the lab's catalogue prices every speed (`shipping_speeds`).
 */
export const SHIPPING_CENTS: Cents = DEFAULT_SHIPPING_SPEED_CENTS.standard;

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
  /** Local pickup ships nothing: no shipping, no drop-ship fee. */
  localPickup: boolean;
  /** The catalogue's price of the order's shipping speed. */
  shippingSpeedCents: Cents;
  /** The catalogue's drop-ship fee while the order ships to the photographer's client; else 0. */
  dropShipFeeCents: Cents;
  boutiquePackagingCents: Cents;
}

export interface OrderTotals {
  /** Prints and finishing: `prints` + `finishing`. */
  subtotal: Cents;
  prints: Cents;
  finishing: Cents;
  discount: Cents;
  credit: Cents;
  shipping: Cents;
  dropShip: Cents;
  boutique: Cents;
  total: Cents;
}

const clamp = (value: Cents, low: Cents, high: Cents) => Math.min(Math.max(value, low), high);

/**
 * subtotal − discount − credit + shipping + drop-ship fee + boutique packaging = total. The
 * discount never exceeds the subtotal; the credit never exceeds what is owed nor what is
 * available; so the total is never negative.
 */
export function orderTotals(input: OrderPriceInput): OrderTotals {
  const subtotal = input.lines.reduce((sum, line) => sum + linePriceCents(line), 0);
  const finishing = input.lines.reduce((sum, line) => sum + line.finishingCents * line.quantity, 0);
  const discount = clamp(input.discountCents, 0, subtotal);
  const shipping = input.localPickup ? 0 : Math.max(0, input.shippingSpeedCents);
  const dropShip = input.localPickup ? 0 : Math.max(0, input.dropShipFeeCents);
  const boutique = Math.max(0, input.boutiquePackagingCents);
  const owed = subtotal - discount + shipping + dropShip + boutique;
  const credit = clamp(Math.min(input.creditRequestedCents, input.creditAvailableCents), 0, owed);
  return { subtotal, prints: subtotal - finishing, finishing, discount, credit, shipping, dropShip, boutique, total: owed - credit };
}

/** What a referrer earns on a referred photographer's paid order: a share of its subtotal, to the cent. */
export function referralCreditCents(subtotalCents: Cents, percent: number): Cents {
  return Math.round((Math.max(0, subtotalCents) * percent) / 100);
}
