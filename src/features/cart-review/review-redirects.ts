import { ROUTES, withNotice } from '../../app/routes.ts';
import { canEditCart } from '../../client-rules/cart-review.ts';
import { routePath } from '../../domain/paths.ts';

/**
 * Where the review sends the user instead of showing itself: an order that is not open to its
 * detail page (bad status), an empty cart to the builder ('You have no line items!'); null to stay.
 */
export function reviewRedirect(order: { guid: string; status: string }, lineItemCount: number): string | null {
  if (!canEditCart(order.status)) return withNotice(routePath(ROUTES.orderDetail, { id: order.guid }), 'bad_status');
  if (lineItemCount === 0) return withNotice(routePath(ROUTES.orderBuilder, { id: order.guid }), 'no_line_items');
  return null;
}

/** After CLEAR CART: the builder, with the cart-cleared flag (which reloads it). */
export const afterClearCart = (orderGuid: string): string => withNotice(routePath(ROUTES.orderBuilder, { id: orderGuid }), 'cart_cleared');
