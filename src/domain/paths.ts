/**
 * The API paths the client calls and the server serves, in one place. The screens' paths are in
 * src/app/routes.ts; routePath fills the parameters of both.
 */
export const API_PREFIX = '/api/v2';

/**
 * Whether a path (or route pattern) is one of the lab API's calls: the rule for what the API
 * document lists and what needs a session. The app's pages and the embedded store's signed URLs
 * are served by the same process but are no API call.
 */
export const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

export const API = {
  status: '/status',
  createPresignedUrl: '/lab_orders/:guid/create_presigned_url',
  blanketCertificate: '/accounts/blanket_certificate',
  profile: '/profile',
  addresses: '/addresses',
  referrals: '/accounts/referrals',
  photographer: '/photographers/:guid',
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
  openapi: '/openapi.json',
  // New order and photo upload (issue 10, docs/upload-and-sync.md §1); create_presigned_url is above.
  labOrder: '/lab_orders/:guid',
  labOrderPhotographs: '/lab_orders/:guid/lab_order_photographs',
  completeUpload: '/lab_orders/:guid/complete_upload',
  photographUploaded: '/lab_orders/:guid/photograph_uploaded',
  // The order builder, cart review and cart preview (issue 11, docs/api.md §9.
  retrieveFullOrder: '/lab_orders/:guid/retrieve_full_order',
  orderLineItems: '/lab_orders/:guid/line_items',
  orderLineItem: '/lab_orders/:guid/line_items/:lineItemGuid',
  lineItem: '/line_items/:guid',
  updateQuantity: '/line_items/:guid/update_quantity',
  // Checkout and payment (issue 12, docs/api.md §8); PATCH labOrder carries the choices.
  checkout: '/lab_orders/:guid/checkout',
  // The lab's admin tools (issue 13, docs/api.md §6); PATCH/DELETE labOrder carry more types.
  photographers: '/photographers',
  createZipFile: '/lab_orders/:guid/create_zip_file',
  // A paper's ICC profile file (issue 35): public like the catalogue, immutable per key.
  paperProfileFile: '/paper_profiles/:file',
} as const;

export type ApiPath = (typeof API)[keyof typeof API];

/** Fills the `:name` segments of a path: routePath(API.labOrder, { guid: 'abc' }), or of a screen's route. */
export function routePath(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`routePath: missing parameter ${name} for ${pattern}`);
    return encodeURIComponent(String(value));
  });
}
