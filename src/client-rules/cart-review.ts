import { formatMoney, toCents, type Cents } from '../domain/money.ts';
import { orderTotals, type OrderTotals } from '../domain/pricing.ts';

/** The cart review's rules (docs/orders.md §2 Cart review, §4 Cropped-image check, §5, §9). */

// The notices a redirect carries (their words and flag) are in src/app/routes.ts, loaded by the shell.

export const CLEAR_CART_CONFIRM =
  'WAIT! This will remove all items from your cart and redirect you to the order page. You cannot undo this action. Are you sure you want to remove EVERYTHING from your cart and start over?';
export const CHECKING_CROPPED_IMAGE = 'checking for cropped image. could take up to 15 seconds...';

/** Only open orders change: quantity arrows, delete icons, CLEAR CART, the builder (docs/orders.md §4). */
export const canEditCart = (status: string): boolean => status === 'open';

/** Wait before looking again for line items' cropped images (docs/orders.md §9). */
export const CROPPED_RECHECK_MS = 4000;
/** Checks at most (docs/orders.md §9); the server's job may take up to 15 s, after that the review stops asking. */
export const CROPPED_MAX_CHECKS = 2;

/** A line item shows the checking text while its photo URL is not the cropped image's. */
export const lacksCroppedImage = (photoUrl: string): boolean => !photoUrl.includes('cropped');

/**
 * When to look again for cropped images, given how many checks were made: CROPPED_RECHECK_MS
 * while some line item lacks its cropped image and fewer than CROPPED_MAX_CHECKS were made, else
 * null (stop; a failure is only logged).
 */
export function croppedRecheckIn(items: readonly { photoUrl: string }[], checksDone: number): number | null {
  if (checksDone >= CROPPED_MAX_CHECKS) return null;
  return items.some((i) => lacksCroppedImage(i.photoUrl)) ? CROPPED_RECHECK_MS : null;
}

/** The order's figures the checkout box needs besides the lines, as the wire carries them (dollars). */
export interface CheckoutBoxOrder {
  discount: number;
  credit_applied: number;
  local_pickup: boolean;
  boutique_shipping: boolean;
  boutique_shipping_price: number;
  /** The lab's price of the order's shipping speed (0 with local pickup). */
  shipping_total: number;
  drop_ship_fee: number;
}

export interface CheckoutBoxLine {
  printPriceCents: Cents;
  finishingPriceCents: Cents;
  quantity: number;
}

export interface CheckoutBoxRow {
  label: 'SUBTOTAL' | 'DISCOUNT' | 'CREDIT' | 'BOUTIQUE PACKAGING' | 'SHIPPING' | 'DROP-SHIP FEE' | 'TOTAL';
  /** Signed as it counts towards the total: discount and credit are negative. */
  cents: Cents;
  text: string;
}

/**
 * The checkout box (subtotal, discount, credit, boutique, shipping, total) from the lines on the
 * device, so it follows changes not yet sent; the server's figures replace it once they arrive.
 */
export function checkoutBox(order: CheckoutBoxOrder, lines: readonly CheckoutBoxLine[]): { totals: OrderTotals; rows: CheckoutBoxRow[] } {
  const credit = toCents(order.credit_applied);
  const totals = orderTotals({
    lines: lines.map((l) => ({ printCents: l.printPriceCents, finishingCents: l.finishingPriceCents, quantity: l.quantity })),
    discountCents: toCents(order.discount),
    creditRequestedCents: credit,
    creditAvailableCents: credit,
    localPickup: order.local_pickup,
    shippingSpeedCents: toCents(order.shipping_total),
    dropShipFeeCents: toCents(order.drop_ship_fee),
    boutiquePackagingCents: order.boutique_shipping ? toCents(order.boutique_shipping_price) : 0,
  });
  const row = (label: CheckoutBoxRow['label'], cents: Cents): CheckoutBoxRow => ({ label, cents, text: formatMoney(cents) });
  return {
    totals,
    rows: [
      row('SUBTOTAL', totals.subtotal),
      row('DISCOUNT', -totals.discount),
      row('CREDIT', -totals.credit),
      row('BOUTIQUE PACKAGING', totals.boutique),
      row('SHIPPING', totals.shipping),
      // Only on an order shipped to the photographer's client.
      ...(totals.dropShip > 0 ? [row('DROP-SHIP FEE', totals.dropShip)] : []),
      row('TOTAL', totals.total),
    ],
  };
}
