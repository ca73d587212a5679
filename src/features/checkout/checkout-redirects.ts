import { ROUTES, withNotice } from '../../app/routes.ts';
import { creditCoversAll, hasCard, type CheckoutFacts } from '../../client-rules/checkout.ts';
import { routePath } from '../../domain/paths.ts';

/**
 * Where checkout final sends the user instead of showing itself, the four guards in the spec's
 * order (docs/orders.md §4); null to stay.
 * (1) not open and already charged (or paid by credit alone, which leaves no provider
 *     confirmation): the order's page, bad-status notice;
 * (2) no line items: the builder, no-line-items notice;
 * (3) shipped (not picked up) with no zip, the studio's or a drop-ship client's: checkout
 *     details, missing-address flag;
 * (4) no card and the credit does not cover the order: checkout details.
 */
export function finalGuard(o: CheckoutFacts, orderGuid: string): string | null {
  if (o.status !== 'open' && (o.stripe_order_confirmation || o.paid_at)) return withNotice(routePath(ROUTES.orderDetail, { id: orderGuid }), 'bad_status');
  if (o.lineItemCount === 0) return withNotice(routePath(ROUTES.orderBuilder, { id: orderGuid }), 'no_line_items');
  if (!o.local_pickup && !o.shipping_address?.zip && !o.drop_ship_address?.zip) return withNotice(routePath(ROUTES.checkoutDetails, { id: orderGuid }), 'missing_address');
  if (!hasCard(o) && !creditCoversAll(o)) return routePath(ROUTES.checkoutDetails, { id: orderGuid });
  return null;
}

/**
 * Where checkout details sends the user instead of showing itself: an order no longer open to its
 * page (bad status), an empty cart to the builder with the cart-cleared notice (docs/orders.md §2).
 */
export function detailsRedirect(o: Pick<CheckoutFacts, 'status' | 'lineItemCount'>, orderGuid: string): string | null {
  if (o.status !== 'open') return withNotice(routePath(ROUTES.orderDetail, { id: orderGuid }), 'bad_status');
  if (o.lineItemCount === 0) return withNotice(routePath(ROUTES.orderBuilder, { id: orderGuid }), 'cart_cleared');
  return null;
}
