/**
 * Every route path of the product in one place: the API paths the client calls and the server
 * serves, and the screen paths of the route table (accounts.md §2, orders.md §2).
 */
export const API_PREFIX = '/api/v2';

/**
 * Whether a path (or route pattern) is one of the lab API's calls: the rule for what the API
 * document lists and what needs a session. The app's pages and the embedded store's signed URLs
 * are served by the same process but are no API call.
 */
export const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

export const API = {
  login: '/login',
  status: '/status',
  clientVersion: '/client_version',
  clientConfig: '/client_config',
  logout: '/logout',
  logoutAllSessions: '/logout_all_sessions',
  users: '/users',
  user: '/users/:guid',
  checkForEmail: '/check_for_email',
  forgotPassword: '/forgot_password',
  validateChallengeToken: '/validate_challenge_token',
  resetPassword: '/reset_password',
  checkReferralCode: '/check_referral_code',
  updateNewUser: '/update_new_user',
  createPresignedUrl: '/lab_orders/:guid/create_presigned_url',
  blanketCertificate: '/accounts/blanket_certificate',
  profile: '/profile',
  addresses: '/addresses',
  updateDefaultAddress: '/accounts/update_default_address',
  removeAddress: '/accounts/remove_address',
  updateUserEmail: '/update_user_email',
  referrals: '/accounts/referrals',
  generateTaxReport: '/accounts/generate_tax_report',
  photographer: '/photographers/:guid',
  shopConnections: '/shop_connections',
  shopConnection: '/shop_connections/:id',
  confirmShopConnection: '/shop_connections/:id/confirm',
  paymentsConfig: '/payments/config',
  sandboxTokens: '/sandbox/tokens',
  createCard: '/accounts/create_card',
  updateDefaultCard: '/accounts/update_default_card',
  removeCard: '/accounts/remove_card',
  labOrders: '/lab_orders',
  papersWithDetails: '/papers_with_details',
  finishingServices: '/products/:print_size_guid/finishing_services',
  calculatorCatalogue: '/calculator_catalogue',
  priceLists: '/price-lists',
  priceQuote: '/price_quote',
  openapi: '/openapi.json',
  // New order and photo upload (issue 10, UPLOAD-CONTRACT.md); create_presigned_url is above.
  labOrder: '/lab_orders/:guid',
  labOrderPhotographs: '/lab_orders/:guid/lab_order_photographs',
  completeUpload: '/lab_orders/:guid/complete_upload',
  photographUploaded: '/lab_orders/:guid/photograph_uploaded',
  // The order builder, cart review and cart preview (issue 11, BUILDER-CONTRACT.md Wire).
  retrieveFullOrder: '/lab_orders/:guid/retrieve_full_order',
  orderLineItems: '/lab_orders/:guid/line_items',
  orderLineItem: '/lab_orders/:guid/line_items/:lineItemGuid',
  lineItem: '/line_items/:guid',
  updateQuantity: '/line_items/:guid/update_quantity',
  // Checkout and payment (issue 12, CHECKOUT-CONTRACT.md Wire); PATCH labOrder carries the choices.
  checkout: '/lab_orders/:guid/checkout',
  // The lab's admin tools (issue 13, ADMIN-CONTRACT.md Wire); PATCH/DELETE labOrder and PATCH user carry more types.
  photographers: '/photographers',
  findPhotographer: '/find_photographer',
  loginAsUser: '/login_as_user',
  apiInvoices: '/api_invoices',
  createZipFile: '/lab_orders/:guid/create_zip_file',
  // Discount codes on the admin screen (issue 34); the command line makes them too.
  discountCodes: '/discount_codes',
  discountCode: '/discount_codes/:code',
} as const;

export type ApiPath = (typeof API)[keyof typeof API];

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

/** The query flag with which /login shows 'You have been logged out!' (accounts.md §2). */
export const LOGGED_OUT_FLAG = 'notify';

/** Routes a visitor may open without signing in (accounts.md §2). */
export const PUBLIC_ROUTES: readonly string[] = [
  ROUTES.login,
  ROUTES.signupStep1,
  ROUTES.refer,
  ROUTES.shopifyConnect,
  ROUTES.forgotPassword,
  ROUTES.forgotPasswordConfirmation,
  ROUTES.resetPassword,
];

/** Fills the `:name` segments of a route path: routePath(ROUTES.orderDetail, { id: 'abc' }). */
export function routePath(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`routePath: missing parameter ${name} for ${pattern}`);
    return encodeURIComponent(String(value));
  });
}
