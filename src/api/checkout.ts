/**
 * The checkout's calls (docs/api.md §8), one typed function per call. Checkout needs a
 * connection: these go straight to the lab, never through the outbox.
 */
import type { ShippingAddress } from '../domain/checkout.ts';
import type { ColorCorrection } from '../domain/order-actions-photographer.ts';
import { API, routePath } from '../domain/paths.ts';
import type { Profile } from './account.ts';
import { apiRequest } from './client.ts';
import type { FullOrder, FullOrderAttributes } from './line-item-calls.ts';

/** The checkout order's attributes: retrieve_full_order's, with the checkout fields. Money in dollars. */
export interface CheckoutAttributes extends FullOrderAttributes {
  guid: string;
  discount_code: { code: string } | null;
  boutique_shipping: boolean;
  boutique_shipping_note: string | null;
  boutique_shipping_price: number;
  eligible_for_boutique_shipping: boolean;
  local_pickup: boolean;
  shipping_address: ShippingAddress | null;
  selected_card_to_use: string | null;
  selected_card_mask: string | null;
  used_saved_card: boolean;
  permission_to_share: boolean;
  paid_at: string | null;
  stripe_order_confirmation: string | null;
  client_name: string | null;
  photographer_name: string | null;
  color_correction: ColorCorrection;
}

export interface CheckoutOrder extends FullOrder {
  data: FullOrder['data'] & { attributes: CheckoutAttributes };
}

/** The PATCH /lab_orders/:guid types checkout sends, with the value each takes. */
export type CheckoutChange =
  | { type: 'discount_code'; value: string }
  | { type: 'credit'; value: number }
  | { type: 'used_saved_card'; value: string }
  | { type: 'local_pickup'; value: boolean }
  | { type: 'shipping_address_id'; value: string }
  | { type: 'boutique_shipping'; value: true; boutique_shipping_note: string }
  | { type: 'boutique_shipping'; value: false }
  | { type: 'permission_to_share'; value: boolean | 'no' }
  | { type: 'updated_at'; value: 'now' }
  | { type: 'color_correction'; value: ColorCorrection };

export interface ValidDiscountCode {
  success: true;
  discount_code: { code: string; kind: 'percent' | 'amount'; percent?: number; amount?: number };
}

const newKey = () => crypto.randomUUID();

export const getCheckoutOrder = (orderGuid: string, signal?: AbortSignal) =>
  apiRequest<CheckoutOrder>('GET', routePath(API.retrieveFullOrder, { guid: orderGuid }), signal ? { signal } : {});

export const updateCheckout = (orderGuid: string, change: CheckoutChange) =>
  apiRequest<CheckoutOrder>('PATCH', routePath(API.labOrder, { guid: orderGuid }), { body: change, idempotencyKey: newKey() });

export const validateDiscountCode = (code: string, signal?: AbortSignal) =>
  apiRequest<ValidDiscountCode>('POST', API.validateDiscountCode, { body: { code }, ...(signal ? { signal } : {}) });

/** Saves the address and sets it on the open order in one call; answers the profile. */
export const addOrderAddress = (payload: {
  recipient_name: string;
  street_address: string;
  street_address_two?: string;
  city: string;
  state: string;
  zip: string;
  lab_order_id: string;
  update_address_on_order: true;
}) => apiRequest<Profile>('POST', API.addresses, { body: payload, idempotencyKey: newKey() });

/** A card typed at checkout: saved with the provider (unkept) and selected for the order; answers the profile. */
export const createOrderCard = (tokenId: string, orderGuid: string) =>
  apiRequest<Profile>('POST', API.createCard, { body: { token_id: tokenId, lab_order_id: orderGuid }, idempotencyKey: newKey() });

/**
 * Places the order. The caller keeps `idempotencyKey` for one attempt: a retry after no answer
 * sends the same key, so the lab charges once however often the request arrives.
 */
export const placeOrder = (orderGuid: string, saveCard: boolean, idempotencyKey: string) =>
  apiRequest<CheckoutOrder>('POST', routePath(API.checkout, { guid: orderGuid }), { body: { save_card: saveCard }, idempotencyKey });
