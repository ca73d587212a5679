import type { CheckoutBoxLine, CheckoutBoxOrder } from '../../client-rules/cart-review.ts';
import { toDollars } from '../../domain/money.ts';
import type { LocalLineItem, LocalOrder } from '../../offline/order-store.ts';

/**
 * The order's figures the checkout box takes, from the order as the device keeps it. The lab
 * charges shipping on every order but a local pickup, so a server total with no shipping is a
 * pickup; boutique packaging is on when it costs something.
 */
export function checkoutBoxOrder(order: Pick<LocalOrder, 'discountCents' | 'creditCents' | 'boutiqueCents' | 'shippingCents' | 'dropShipCents'>): CheckoutBoxOrder {
  return {
    discount: toDollars(order.discountCents),
    credit_applied: toDollars(order.creditCents),
    local_pickup: order.shippingCents === 0,
    boutique_shipping: order.boutiqueCents > 0,
    boutique_shipping_price: toDollars(order.boutiqueCents),
    shipping_total: toDollars(order.shippingCents),
    drop_ship_fee: toDollars(order.dropShipCents ?? 0),
  };
}

/** The lines the checkout box adds up: every line on the device, sent or not. */
export const checkoutBoxLines = (items: readonly Pick<LocalLineItem, 'printPriceCents' | 'finishingPriceCents' | 'quantity'>[]): CheckoutBoxLine[] =>
  items.map((i) => ({ printPriceCents: i.printPriceCents, finishingPriceCents: i.finishingPriceCents, quantity: i.quantity }));
