/**
 * The notices a redirect carries to the screen it lands on (docs/orders.md §2, §4): their words and the
 * `?notice=` flag. A module of their own because every signed-in screen reads the flag (the shell's
 * route-notice.ts): the cart's rules and pricing stay out of the first page's JavaScript.
 */

export const NO_LINE_ITEMS = 'You have no line items!';
export const ORDER_NOT_OPEN_TO_CHECKOUT = 'Order needs to be in open status to checkout!';
export const NEEDS_ADDRESS_AND_CARD = 'You need a shipping address and credit card to checkout!';
/** Not in the spec, which only says the builder reloads: a word that the cart is empty now. */
export const CART_CLEARED = 'Your cart was cleared.';

/** The query parameter that carries a notice to the screen a redirect lands on. */
export const NOTICE_PARAM = 'notice';
export const NOTICES = {
  no_line_items: NO_LINE_ITEMS,
  bad_status: ORDER_NOT_OPEN_TO_CHECKOUT,
  cart_cleared: CART_CLEARED,
  // Checkout final sends an order without a shipping address back to checkout details (docs/orders.md §4).
  missing_address: NEEDS_ADDRESS_AND_CARD,
} as const;
export type NoticeFlag = keyof typeof NOTICES;

/** The text of a notice flag read from the URL; null for none or an unknown one. */
export const noticeText = (flag: string | null): string | null => (flag && Object.hasOwn(NOTICES, flag) ? NOTICES[flag as NoticeFlag] : null);

export const withNotice = (path: string, flag: NoticeFlag) => `${path}?${NOTICE_PARAM}=${flag}`;
