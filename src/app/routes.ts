/**
 * The screens' paths (docs/accounts.md §2, docs/orders.md §2), what a visitor may open without signing in,
 * and the notices a redirect carries to the screen it lands on. The one file of src/app that
 * features import: it holds no code of the shell, so a screen's chunk stays its own.
 */

/** Screen paths; `:name` segments are route parameters. */
export const ROUTES = {
  login: '/login',
  signupStep1: '/signup/1-of-3',
  refer: '/refer/:id',
  shopifyConnect: '/shopify-connect',
  forgotPassword: '/forgot-password',
  forgotPasswordConfirmation: '/forgot-password-confirmation',
  resetPassword: '/reset-password',
  signupStep2: '/signup/2-of-3',
  signupStep3: '/signup/3-of-3',
  signupConfirmation: '/signup/confirmation',
  home: '/',
  account: '/account',
  credit: '/credit',
  calculate: '/calculate',
  priceLists: '/price-lists',
  cartPreview: '/cart-preview/:id',
  labOrders: '/lab-orders',
  apiInvoices: '/api-invoices',
  photographer: '/photographers/:guid',
  photographers: '/photographers',
  discountCodes: '/discount-codes',
  orderThanks: '/lab-order-confirmation',
  newOrder: '/lab-orders/upload',
  uploadProgress: '/lab-orders/:id/upload-progress',
  orderBuilder: '/lab-orders/:id/edit/order-builder',
  lineItemEdit: '/lab-orders/:id/edit/order-builder/line-item/:line_item_id',
  cartReview: '/lab-orders/:id/review',
  mergeReview: '/lab-orders/:startOrderId/merge-order/:endOrderId/review',
  checkoutDetails: '/lab-orders/:id/checkout-details',
  checkoutFinal: '/lab-orders/:id/checkout-final/',
  orderDetail: '/lab-orders/:id',
} as const;

/** The query flag with which /login shows 'You have been logged out!' (docs/accounts.md §2). */
export const LOGGED_OUT_FLAG = 'notify';

/** Routes a visitor may open without signing in (docs/accounts.md §2). */
export const PUBLIC_ROUTES: readonly string[] = [
  ROUTES.login,
  ROUTES.signupStep1,
  ROUTES.refer,
  ROUTES.shopifyConnect,
  ROUTES.forgotPassword,
  ROUTES.forgotPasswordConfirmation,
  ROUTES.resetPassword,
];

/**
 * The notices a redirect carries to the screen it lands on (docs/orders.md §2, §4): their words and the
 * `?notice=` flag. Here, not with the cart's rules, because every signed-in screen reads the flag
 * (the shell's route-notice.ts): the cart's rules and pricing stay out of the first page's JavaScript.
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
