import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { addBusinessDays, labDateOf } from '../../src/domain/ship-dates.ts';
import type { Caller, Person, World } from './authorisation-world.ts';

/**
 * WHO MAY CALL EACH ROUTE: one row per route of /api/v2/openapi.json (and per reachable route
 * the document hides), keyed 'METHOD /path/{param}' as the document writes it. The matrix test
 * fails for a route without a row and for a row without a route, so every new route declares its
 * callers here.
 *
 * A row gives:
 * - `who`: who may call it and on whose things, in words;
 * - `access`: the status class each caller gets (one of the presets below, or spelled out):
 *   '2xx', '401', '403', '404', or '4xx' (refused as invalid: 400 or 422), or { skip: 'reason' }
 *   where a caller cannot apply;
 * - `request(w, c)`: a VALID request on A's (the owner's) things; `c.acting` is the account the
 *   caller acts on (their own; A's for an admin acting as A), for routes about the caller's own
 *   account. The hostile-input properties start from this request too.
 * - `check` (optional): more to assert about a 2xx answer, e.g. that B's list holds none of A's.
 */
export type Outcome = '2xx' | '401' | '403' | '404' | '4xx' | { skip: string };
export type Access = Record<Caller, Outcome>;
export interface CallContext {
  caller: Caller;
  acting: Person | null;
}
export type Request = Pick<InjectOptions, 'url' | 'headers'> & { url: string; payload?: unknown };
export interface RouteRow {
  who: string;
  access: Access;
  request: (w: World, c: CallContext) => Request;
  check?: (res: LightMyRequestResponse, w: World, c: CallContext) => void;
}

/** A valid PNG of one pixel, as base64: the smallest logo. */
const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Anyone, signed in or not (the token is not looked at). */
export const PUBLIC: Access = { anonymous: '2xx', owner: '2xx', other: '2xx', admin: '2xx', adminAsOwner: '2xx' };
/** Any signed-in user, on their own account (no one else's thing is named). */
export const SIGNED_IN_SELF: Access = { anonymous: '401', owner: '2xx', other: '2xx', admin: '2xx', adminAsOwner: '2xx' };
/** A's things: A, or an admin acting as A; everyone else is told it does not exist. */
export const OWNER_ONLY: Access = { anonymous: '401', owner: '2xx', other: '404', admin: '404', adminAsOwner: '2xx' };
/** A's things, which an admin may also see or change directly. */
export const OWNER_OR_ADMIN: Access = { anonymous: '401', owner: '2xx', other: '404', admin: '2xx', adminAsOwner: '2xx' };
/** Lab staff only. */
export const ADMIN_ONLY: Access = { anonymous: '401', owner: '403', other: '403', admin: '2xx', adminAsOwner: '403' };

const me = (c: CallContext): Person => {
  if (!c.acting) throw new Error('this request needs a signed-in caller');
  return c.acting;
};
const fresh = () => `new-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@matrix.example`;
const json = (res: LightMyRequestResponse) => res.json<Record<string, unknown>>();
/** A weekday (YYYY-MM-DD) about `days` days from today: a ship date later than any promised. */
const weekdayAhead = (days: number) => addBusinessDays(labDateOf(new Date(Date.now() + days * 86_400_000)), 1);

export const ROUTE_TABLE: Record<string, RouteRow> = {
  // Status and documents
  'GET /api/v2/status': { who: 'anyone', access: PUBLIC, request: () => ({ url: '/api/v2/status' }) },
  'GET /api/v2/client_version': { who: 'anyone', access: PUBLIC, request: () => ({ url: '/api/v2/client_version' }) },
  'GET /api/v2/client_config': { who: 'anyone (the error-reporting settings; no personal data)', access: PUBLIC, request: () => ({ url: '/api/v2/client_config' }) },
  'GET /api/v2/openapi.json': { who: 'anyone (not in the document itself)', access: PUBLIC, request: () => ({ url: '/api/v2/openapi.json' }) },

  // Sessions
  'POST /api/v2/login': { who: 'anyone with the password', access: PUBLIC, request: (w) => ({ url: '/api/v2/login', payload: { email: w.owner.email, password: w.owner.password } }) },
  'DELETE /api/v2/logout': { who: 'the session itself', access: SIGNED_IN_SELF, request: () => ({ url: '/api/v2/logout' }) },
  'DELETE /api/v2/logout_all_sessions': { who: "the user's own sessions", access: SIGNED_IN_SELF, request: () => ({ url: '/api/v2/logout_all_sessions' }) },

  // Sign-up and password reset (public; the lookups are rate-limited)
  'POST /api/v2/users': {
    who: 'anyone (sign-up)',
    access: PUBLIC,
    request: () => ({ url: '/api/v2/users', payload: { email: fresh(), first_name: 'New', last_name: 'Person', password: 'long-enough-1', password_confirmation: 'long-enough-1' } }),
  },
  'POST /api/v2/check_for_email': { who: 'anyone', access: PUBLIC, request: (w) => ({ url: '/api/v2/check_for_email', payload: { email: w.owner.email } }) },
  'POST /api/v2/check_referral_code': { who: 'anyone', access: PUBLIC, request: (w) => ({ url: '/api/v2/check_referral_code', payload: { code: w.owner.referralCode } }) },
  'PATCH /api/v2/update_new_user': { who: 'a signed-in user, on their own account', access: SIGNED_IN_SELF, request: () => ({ url: '/api/v2/update_new_user', payload: { tn_business: false } }) },
  'POST /api/v2/forgot_password': { who: 'anyone', access: PUBLIC, request: (w) => ({ url: '/api/v2/forgot_password', payload: { email: w.owner.email } }) },
  'POST /api/v2/validate_challenge_token': {
    who: 'anyone with the mailed token',
    access: PUBLIC,
    request: (w) => ({ url: '/api/v2/validate_challenge_token', payload: { email: w.owner.email, challenge_token: w.ownerResetToken } }),
  },
  'POST /api/v2/reset_password': {
    who: 'anyone with the mailed token',
    access: PUBLIC,
    request: (w) => ({ url: '/api/v2/reset_password', payload: { email: w.owner.email, challenge_token: w.ownerResetToken, password: 'brand-new-pass-1', password_confirmation: 'brand-new-pass-1' } }),
  },

  // Certificate upload: A's own account only; the signed storage URL is the capability itself
  'POST /api/v2/lab_orders/{guid}/create_presigned_url': {
    who: 'the account owner',
    access: OWNER_ONLY,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.owner.guid}/create_presigned_url`, payload: { guid: w.owner.guid, file_name: 'resale.pdf' } }),
  },
  'POST /api/v2/accounts/blanket_certificate': { who: 'the account owner', access: OWNER_ONLY, request: (w) => ({ url: '/api/v2/accounts/blanket_certificate', payload: { key: w.ownerCertificateKey } }) },
  'PUT /storage/*': { who: 'whoever holds the signed URL (not in the document)', access: PUBLIC, request: (w) => ({ url: w.signedPut, payload: '%PDF-1.4\n%%EOF\n', headers: { 'content-type': 'application/pdf' } }) },
  'GET /storage/*': { who: 'whoever holds the signed URL (not in the document)', access: PUBLIC, request: (w) => ({ url: w.signedGet }) },

  // The account page
  'GET /api/v2/profile': {
    who: 'a signed-in user: their own profile',
    access: SIGNED_IN_SELF,
    request: () => ({ url: '/api/v2/profile' }),
    check: (res, _w, c) => expectSame(json(res).user, 'guid', me(c).guid),
  },
  'PATCH /api/v2/users/{guid}': {
    who: 'the account owner (BASIC INFORMATION form; admins edit photographers elsewhere)',
    access: OWNER_ONLY,
    request: (w) => ({ url: `/api/v2/users/${w.owner.guid}`, payload: { business_name: 'Renamed studio' } }),
  },
  'POST /api/v2/addresses': {
    who: 'a signed-in user, on their own account',
    access: SIGNED_IN_SELF,
    request: () => ({ url: '/api/v2/addresses', payload: { street_address: '2 Fixer St', city: 'Memphis', state: 'TN', zip: '38103' } }),
  },
  'POST /api/v2/accounts/update_default_address': { who: 'the owner of the address', access: OWNER_ONLY, request: (w) => ({ url: '/api/v2/accounts/update_default_address', payload: { make_primary: w.ownerAddress } }) },
  'POST /api/v2/accounts/remove_address': { who: 'the owner of the address', access: OWNER_ONLY, request: (w) => ({ url: '/api/v2/accounts/remove_address', payload: { selected_item: w.ownerAddress } }) },
  'PATCH /api/v2/update_user_email': {
    who: 'a signed-in user, with their own password',
    access: SIGNED_IN_SELF,
    request: (w, c) => ({ url: '/api/v2/update_user_email', payload: { email: fresh(), password: (c.acting ?? w.owner).password } }),
  },
  'POST /api/v2/shop_connections': {
    who: 'anyone with the connection code (the shop platform calls it)',
    access: PUBLIC,
    request: (w) => ({ url: '/api/v2/shop_connections', payload: { code: w.ownerShopCode, shop: `${w.owner.guid.slice(0, 8)}-${Math.random().toString(36).slice(2, 8)}.myshopify.com` } }),
  },
  'POST /api/v2/shop_connections/{id}/confirm': {
    who: "the account owner: CONFIRM a shop waiting on their account page",
    access: OWNER_ONLY,
    request: (w) => ({ url: `/api/v2/shop_connections/${w.ownerPendingShop}/confirm` }),
  },
  'DELETE /api/v2/shop_connections/{id}': {
    who: "the account owner: DECLINE a shop waiting on their account page",
    access: OWNER_ONLY,
    request: (w) => ({ url: `/api/v2/shop_connections/${w.ownerPendingShop}` }),
  },
  'POST /api/v2/accounts/generate_tax_report': {
    who: 'a signed-in user: their own sales report',
    access: SIGNED_IN_SELF,
    request: () => ({ url: '/api/v2/accounts/generate_tax_report', payload: { year: new Date().getUTCFullYear() } }),
  },

  // Referrals and credit
  'GET /api/v2/accounts/referrals': { who: 'a signed-in user: their own referrals', access: SIGNED_IN_SELF, request: () => ({ url: '/api/v2/accounts/referrals' }) },
  'GET /api/v2/photographers/{guid}': {
    who: 'the photographer, or an admin',
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/photographers/${w.owner.guid}` }),
    check: (res, w) => expectSame((json(res).data as Record<string, unknown>).user, 'guid', w.owner.guid),
  },

  // Cards
  'GET /api/v2/payments/config': { who: 'anyone', access: PUBLIC, request: () => ({ url: '/api/v2/payments/config' }) },
  'POST /api/v2/sandbox/tokens': {
    who: 'anyone (the TEST MODE card field, before sign-in too)',
    access: PUBLIC,
    request: () => ({ url: '/api/v2/sandbox/tokens', payload: { number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' } }),
  },
  'POST /api/v2/accounts/create_card': { who: 'a signed-in user, on their own account', access: SIGNED_IN_SELF, request: () => ({ url: '/api/v2/accounts/create_card', payload: { token_id: 'tok_visa' } }) },
  'POST /api/v2/accounts/update_default_card': { who: 'the owner of the card', access: OWNER_ONLY, request: (w) => ({ url: '/api/v2/accounts/update_default_card', payload: { make_primary: w.ownerCard } }) },
  'POST /api/v2/accounts/remove_card': { who: 'the owner of the card', access: OWNER_ONLY, request: (w) => ({ url: '/api/v2/accounts/remove_card', payload: { selected_item: w.ownerCard } }) },

  // Orders
  'GET /api/v2/lab_orders': {
    who: 'a signed-in user: their own orders; an admin: all',
    access: SIGNED_IN_SELF,
    request: () => ({ url: '/api/v2/lab_orders' }),
    check: (res, w, c) => {
      const guids = (json(res).data as { attributes: { guid: string } }[]).map((o) => o.attributes.guid);
      const seesA = c.caller !== 'other';
      if (guids.includes(w.ownerOrder) !== seesA) throw new Error(`${c.caller} ${seesA ? 'does not see' : 'sees'} A's order`);
    },
  },

  // New order and photo upload (docs/upload-and-sync.md §1): A's order, its photos and uploads
  'POST /api/v2/check_unique_order_name': {
    who: "a signed-in user, about their own order names (A's name is taken only for A)",
    access: OWNER_ONLY,
    request: (w) => ({ url: '/api/v2/check_unique_order_name', payload: { order_name: w.ownerOrderName } }),
  },
  'POST /api/v2/lab_orders': {
    who: 'a signed-in user: a new order of their own',
    access: SIGNED_IN_SELF,
    request: () => ({ url: '/api/v2/lab_orders', payload: { order_name: `New order ${Math.random().toString(36).slice(2, 10)}` } }),
  },
  'GET /api/v2/lab_orders/{guid}': {
    who: "the order's photographer, or an admin",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}` }),
    check: (res, w) => expectSame((json(res).data as Record<string, unknown>).attributes, 'guid', w.ownerOrder),
  },
  'DELETE /api/v2/lab_orders/{guid}': {
    who: "the order's photographer, or an admin, while the order is open",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}` }),
  },
  'GET /api/v2/lab_orders/{guid}/lab_order_photographs': {
    who: "the order's photographer, or an admin",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/lab_order_photographs` }),
    check: (res, w) => expectSame((json(res).data as unknown[])[0], 'guid', w.ownerPhoto),
  },
  'GET /api/v2/lab_orders/{guid}/photographs/{photoGuid}': {
    who: "the order's photographer, or an admin",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/photographs/${w.ownerPhoto}` }),
    check: (res, w) => expectSame(json(res).data, 'guid', w.ownerPhoto),
  },
  'POST /api/v2/lab_orders/{guid}/complete_upload': {
    who: "the order's photographer (admins upload into no one's order)",
    access: OWNER_ONLY,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/complete_upload`, payload: { uploadId: w.ownerMultipart.uploadId, parts: [{ partNumber: 1, etag: w.ownerMultipart.etag }] } }),
  },
  'PATCH /api/v2/lab_orders/{guid}/photograph_uploaded': {
    who: "the order's photographer (admins upload into no one's order)",
    access: OWNER_ONLY,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/photograph_uploaded`, payload: { key: w.ownerPhotoUpload, photo_file_name: 'matrix.jpg' } }),
  },

  // The cart (issue 11, docs/api.md §9: A's order and its line items
  'GET /api/v2/lab_orders/{guid}/retrieve_full_order': {
    who: "the order's photographer, or an admin",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/retrieve_full_order` }),
    check: (res, w) => expectSame((json(res).data as { line_items: unknown[] }).line_items[0], 'guid', w.ownerLineItem),
  },
  'POST /api/v2/lab_orders/{guid}/line_items': {
    who: "the order's photographer, or an admin, while the order is open",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/line_items`, payload: { line_items: [lineItemPayload(w, randomUUID())] } }),
  },
  'PATCH /api/v2/lab_orders/{guid}/line_items/{lineItemGuid}': {
    who: "the order's photographer, or an admin, while the order is open",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/line_items/${w.ownerLineItem}`, payload: { line_items: [{ ...lineItemPayload(w, w.ownerLineItem), quantity: 2 }] } }),
    check: (res, w) => expectSame(json(res).data, 'guid', w.ownerLineItem),
  },
  'PATCH /api/v2/line_items/{guid}/update_quantity': {
    who: "the order's photographer, or an admin, while the order is open",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/line_items/${w.ownerLineItem}/update_quantity`, payload: { line_items: [{ quantity: 3 }] } }),
  },
  'DELETE /api/v2/line_items/{guid}': {
    who: "the order's photographer, or an admin, while the order is open",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/line_items/${w.ownerLineItem}` }),
  },
  'PATCH /api/v2/lab_orders/{guid}': {
    who: "the order's photographer, or an admin",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}`, payload: { type: 'updated_at', value: 'now' } }),
    check: (res, w) => expectSame((json(res).data as Record<string, unknown>).attributes, 'guid', w.ownerOrder),
  },

  // Drop-ship to the photographer's client (issue 34): the order's own address, never another's to read
  'PUT /api/v2/lab_orders/{guid}/drop_ship': {
    who: "the order's photographer, or an admin, while the order is open",
    access: OWNER_OR_ADMIN,
    request: (w) => ({
      url: `/api/v2/lab_orders/${w.ownerOrder}/drop_ship`,
      payload: { recipient_name: 'Ansel Adams', street_address: '9 Half Dome Rd', city: 'Yosemite', state: 'CA', zip: '95389' },
    }),
    check: (res, w) => {
      const attributes = (json(res).data as Record<string, unknown>).attributes as Record<string, unknown>;
      expectSame(attributes, 'guid', w.ownerOrder);
      expectSame((attributes.drop_ship_address as Record<string, unknown> | null) ?? {}, 'recipient', 'Ansel Adams');
    },
  },
  'DELETE /api/v2/lab_orders/{guid}/drop_ship': {
    who: "the order's photographer, or an admin, while the order is open",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/drop_ship` }),
    check: (res, w) => {
      const attributes = (json(res).data as Record<string, unknown>).attributes as Record<string, unknown>;
      expectSame(attributes, 'guid', w.ownerOrder);
      if (attributes.drop_ship_address !== null) throw new Error('drop_ship_address is still set');
    },
  },

  // Checkout and payment (issue 12, docs/api.md §8)
  'POST /api/v2/validate_discount_code': {
    who: 'a signed-in user (whether a code can be used; no one owns a code)',
    access: SIGNED_IN_SELF,
    request: (w) => ({ url: '/api/v2/validate_discount_code', payload: { code: w.discountCode } }),
    check: (res, w) => expectSame((json(res).discount_code as Record<string, unknown> | undefined) ?? {}, 'code', w.discountCode),
  },

  'POST /api/v2/lab_orders/{guid}/checkout': {
    who: "the order's photographer, or an admin, while the order is open",
    access: OWNER_OR_ADMIN,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/checkout`, payload: {} }),
    check: (res, w) => {
      expectSame((json(res).data as Record<string, unknown>).attributes, 'guid', w.ownerOrder);
      expectSame((json(res).data as Record<string, unknown>).attributes, 'status', 'paid');
    },
  },

  // Money on an order (issue 13): refunds by the lab, cancellation by the photographer
  'POST /api/v2/lab_orders/{guid}/refund': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerPaidOrder}/refund`, payload: { refund_amount: '1.00', refund_note: 'Matrix' } }),
  },
  // Delay notices (issue 34): the lab's word on a paid order's new ship date
  'POST /api/v2/lab_orders/{guid}/delays': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerPaidOrder}/delays`, payload: { ship_by: weekdayAhead(30), reason: 'Matrix: the moulding is back-ordered' } }),
    check: (res) => expectSame(((json(res).data as Record<string, unknown>).attributes as Record<string, unknown>).ship_dates, 'ship_by', weekdayAhead(30)),
  },
  'POST /api/v2/lab_orders/{guid}/cancel': {
    who: "the order's photographer (an admin sets the status and refunds instead)",
    access: OWNER_ONLY,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerPaidOrder}/cancel` }),
    check: (res, w) => {
      expectSame((json(res).data as Record<string, unknown>).attributes, 'guid', w.ownerPaidOrder);
      expectSame((json(res).data as Record<string, unknown>).attributes, 'status', 'cancelled');
    },
  },

  'POST /api/v2/lab_orders/{guid}/reorder': {
    who: "the order's photographer: a new order of their own",
    access: OWNER_ONLY,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/reorder`, payload: { order_name: `Reorder ${Math.random().toString(36).slice(2, 10)}` } }),
  },
  'POST /api/v2/lab-orders/merge': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: (w) => ({ url: '/api/v2/lab-orders/merge', payload: { orders: [w.ownerOrder, w.ownerSecondOrder] } }),
    check: (res, w) => expectSame((json(res).data as Record<string, unknown>).attributes, 'guid', w.ownerOrder),
  },

  'POST /api/v2/lab_orders/{guid}/create_zip_file': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/create_zip_file` }),
  },
  'POST /api/v2/lab_orders/{guid}/send_to_api': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerPaidOrder}/send_to_api` }),
  },
  'POST /api/v2/lab_orders/{guid}/album_line_items': {
    who: "lab admins, on a photographer's open order (a custom album from its photos)",
    access: ADMIN_ONLY,
    request: (w) => ({
      url: `/api/v2/lab_orders/${w.ownerOrder}/album_line_items`,
      payload: { description: 'Matrix album', spread_quantity: 10, total_price: '120.00', album_photos: [w.ownerPhoto] },
    }),
  },

  // The lab's admin tools on photographers (issue 13, docs/api.md §6)
  'GET /api/v2/photographers': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: (w) => ({ url: `/api/v2/photographers?search=${encodeURIComponent(w.owner.email)}` }),
    check: (res, w) => expectSame((json(res).data as { attributes: unknown }[])[0]?.attributes, 'guid', w.owner.guid),
  },
  'GET /api/v2/find_photographer': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: (w) => ({ url: `/api/v2/find_photographer?query=${encodeURIComponent(w.owner.email)}` }),
    check: (res, w) => expectSame((json(res).data as { attributes: unknown }[])[0]?.attributes, 'guid', w.owner.guid),
  },
  'POST /api/v2/login_as_user': {
    who: 'lab admins (not while acting as a photographer)',
    access: ADMIN_ONLY,
    request: (w) => ({ url: '/api/v2/login_as_user', payload: { email: w.owner.email } }),
    check: (res, w) => expectSame(json(res), 'guid', w.owner.guid),
  },
  // Discount codes on the admin screen (issue 34)
  // Order status mails' switches (issue 34): each account's own
  'GET /api/v2/accounts/status_mails': { who: 'a signed-in user: their own switches', access: SIGNED_IN_SELF, request: () => ({ url: '/api/v2/accounts/status_mails' }) },
  'PATCH /api/v2/accounts/status_mails': {
    who: 'a signed-in user: their own switches',
    access: SIGNED_IN_SELF,
    request: () => ({ url: '/api/v2/accounts/status_mails', payload: { step: 'printing', on: false } }),
  },
  // The blind packing slip (issue 34): each account's own identity; an order's slip for the lab
  'GET /api/v2/accounts/packing_slip': { who: 'a signed-in user: their own packing-slip identity', access: SIGNED_IN_SELF, request: () => ({ url: '/api/v2/accounts/packing_slip' }) },
  'PUT /api/v2/accounts/packing_slip/return_address': {
    who: 'a signed-in user: their own return address',
    access: SIGNED_IN_SELF,
    request: () => ({ url: '/api/v2/accounts/packing_slip/return_address', payload: { return_address: { name: 'Studio', street: '1 Main St', street_2: null, city: 'Nashville', state: 'TN', zip: '37201' } } }),
  },
  'PUT /api/v2/accounts/packing_slip/logo': {
    who: 'a signed-in user: their own logo',
    access: SIGNED_IN_SELF,
    request: () => ({ url: '/api/v2/accounts/packing_slip/logo', payload: { data: ONE_PIXEL_PNG } }),
  },
  'DELETE /api/v2/accounts/packing_slip/logo': { who: 'a signed-in user: their own logo', access: SIGNED_IN_SELF, request: () => ({ url: '/api/v2/accounts/packing_slip/logo' }) },
  'GET /api/v2/lab_orders/{guid}/packing_slip': { who: 'lab admins', access: ADMIN_ONLY, request: (w) => ({ url: `/api/v2/lab_orders/${w.ownerOrder}/packing_slip` }) },
  // Partner webhooks (issue 34): each account's own
  'GET /api/v2/webhooks': {
    who: 'a signed-in user: their own webhooks',
    access: SIGNED_IN_SELF,
    request: () => ({ url: '/api/v2/webhooks' }),
    check: (res, w, c) => {
      const listed = JSON.stringify(json(res)).includes(w.ownerWebhook);
      if (listed !== (c.acting?.guid === w.owner.guid)) throw new Error(`A's webhook ${listed ? 'listed' : 'missing'} for ${c.caller}`);
    },
  },
  'POST /api/v2/webhooks': {
    who: 'a signed-in user: a webhook on their own account',
    access: SIGNED_IN_SELF,
    request: () => ({ url: '/api/v2/webhooks', payload: { url: 'https://partner.example.com/lab-events' } }),
  },
  'DELETE /api/v2/webhooks/{guid}': { who: 'the account owner', access: OWNER_ONLY, request: (w) => ({ url: `/api/v2/webhooks/${w.ownerWebhook}` }) },
  'GET /api/v2/webhooks/{guid}/deliveries': { who: 'the account owner', access: OWNER_ONLY, request: (w) => ({ url: `/api/v2/webhooks/${w.ownerWebhook}/deliveries` }) },
  'POST /api/v2/webhook_deliveries/{guid}/resend': { who: 'the account owner', access: OWNER_ONLY, request: (w) => ({ url: `/api/v2/webhook_deliveries/${w.ownerWebhookDelivery}/resend` }) },

  'GET /api/v2/discount_codes': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: () => ({ url: '/api/v2/discount_codes' }),
    check: (res, w) => {
      if (!(json(res).data as { code: string }[]).some((c) => c.code === w.discountCode)) throw new Error(`${w.discountCode} is not listed`);
    },
  },
  'POST /api/v2/discount_codes': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: () => ({ url: '/api/v2/discount_codes', payload: { code: `NEW-${Math.random().toString(36).slice(2, 10)}`, percent: 10, last_day: '2099-12-31', usage_limit: 5 } }),
  },
  'PATCH /api/v2/discount_codes/{code}': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    // RESUME: a change that leaves the world's code usable by the other rows.
    request: (w) => ({ url: `/api/v2/discount_codes/${w.discountCode}`, payload: { paused: false } }),
    check: (res, w) => expectSame((json(res).data as Record<string, unknown>), 'code', w.discountCode),
  },
  'GET /api/v2/api_invoices': { who: 'lab admins and API vendors (none in the world: their own only)', access: ADMIN_ONLY, request: () => ({ url: '/api/v2/api_invoices' }) },

  // The catalogue (public)
  'GET /api/v2/papers_with_details': { who: 'anyone', access: PUBLIC, request: () => ({ url: '/api/v2/papers_with_details' }) },
  'GET /api/v2/products/{print_size_guid}/finishing_services': { who: 'anyone', access: PUBLIC, request: (w) => ({ url: `/api/v2/products/${w.printSize}/finishing_services` }) },
  'GET /api/v2/calculator_catalogue': { who: 'anyone', access: PUBLIC, request: () => ({ url: '/api/v2/calculator_catalogue' }) },
  'GET /api/v2/price-lists': { who: 'anyone', access: PUBLIC, request: () => ({ url: '/api/v2/price-lists' }) },
  'POST /api/v2/price_quote': { who: 'anyone', access: PUBLIC, request: (w) => ({ url: '/api/v2/price_quote', payload: { print_size: w.printSize, quantity: 2 } }) },
  'PUT /api/v2/papers/{paper_guid}/icc_profile': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: (w) => ({ url: `/api/v2/papers/${w.paper}/icc_profile`, payload: { file_name: 'matrix.icc', profile: w.paperProfile } }),
  },
  'DELETE /api/v2/papers/{paper_guid}/icc_profile': {
    who: 'lab admins',
    access: ADMIN_ONLY,
    request: (w) => ({ url: `/api/v2/papers/${w.paper}/icc_profile` }),
  },
  'GET /api/v2/paper_profiles/{file}': {
    who: 'anyone (the file a public catalogue links; hidden from the document: bytes, not JSON)',
    access: PUBLIC,
    request: (w) => ({ url: `/api/v2/paper_profiles/${w.paperProfileFile}` }),
  },
};

/** A valid line item of A's photo as the builder sends it (line-item-payload.ts). */
function lineItemPayload(w: World, guid: string) {
  const photograph = { source_photograph_guid: w.ownerPhoto, crop_x: 0, crop_y: 0, crop_h: 100, crop_w: 100, photo_meta: {} };
  return {
    guid,
    imageName: 'matrix.jpg',
    quantity: 1,
    print_size: w.printSize,
    finishing_service: null,
    finishing_service_detail: null,
    finishing_service_details: [],
    print_border: 'none',
    notes: '',
    source_photograph_guid: w.ownerPhoto,
    photograph,
  };
}

function expectSame(record: unknown, field: string, want: string): void {
  const got = (record as Record<string, unknown> | undefined)?.[field];
  if (got !== want) throw new Error(`${field} is ${String(got)}, expected ${want}`);
}

/** The status class of an answer, in the table's words. */
export function outcomeOf(status: number): Exclude<Outcome, { skip: string }> | `other ${number}` {
  if (status >= 200 && status < 300) return '2xx';
  if (status === 401 || status === 403 || status === 404) return String(status) as '401' | '403' | '404';
  if (status === 400 || status === 422) return '4xx';
  return `other ${status}`;
}
