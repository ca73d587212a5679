/**
 * The checkout's calls (docs/api.md §8), one typed function per call. Checkout needs a
 * connection: these go straight to the lab, never through the outbox.
 */
import type { AnswerOf, InputOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import type { ColorCorrection } from '../client-rules/order-actions-photographer.ts';
import type { ShippingSpeed } from '../domain/shipping-speeds.ts';
import { newId } from '../client-rules/ids.ts';
import { call } from './call.ts';
import type { FullOrder } from './line-item-calls.ts';

/** The checkout order: retrieve_full_order's answer, with the checkout fields. Money in dollars. */
export type CheckoutOrder = FullOrder;
export type CheckoutAttributes = CheckoutOrder['data']['attributes'];

/** The PATCH /lab_orders/:guid types checkout sends, with the value each takes. */
export type CheckoutChange =
  | { type: 'discount_code'; value: string }
  | { type: 'credit'; value: number }
  | { type: 'used_saved_card'; value: string }
  | { type: 'local_pickup'; value: boolean }
  | { type: 'shipping_address_id'; value: string }
  | { type: 'boutique_shipping'; value: true; boutique_shipping_note: string }
  | { type: 'boutique_shipping'; value: false }
  | { type: 'blind_slip'; value: boolean }
  | { type: 'shipping_method'; value: ShippingSpeed }
  | { type: 'permission_to_share'; value: boolean | 'no' }
  | { type: 'updated_at'; value: 'now' }
  | { type: 'color_correction'; value: ColorCorrection };

export type ValidDiscountCode = AnswerOf<Contract['POST /validate_discount_code']>;

export const getCheckoutOrder = (orderGuid: string, signal?: AbortSignal) =>
  call('GET /lab_orders/:guid/retrieve_full_order', { params: { guid: orderGuid }, query: {} }, signal ? { signal } : {});

export const updateCheckout = (orderGuid: string, change: CheckoutChange) =>
  call('PATCH /lab_orders/:guid', { params: { guid: orderGuid }, body: change }, { idempotencyKey: newId() });

/** Drop-ship: the order ships to the photographer's client at this name and address (never saved among their addresses). */
export const setDropShip = (orderGuid: string, client: InputOf<Contract['PUT /lab_orders/:guid/drop_ship']>['body']) =>
  call('PUT /lab_orders/:guid/drop_ship', { params: { guid: orderGuid }, body: client }, { idempotencyKey: newId() });

/** The order ships to the studio again. */
export const removeDropShip = (orderGuid: string) => call('DELETE /lab_orders/:guid/drop_ship', { params: { guid: orderGuid } }, { idempotencyKey: newId() });

export const validateDiscountCode = (code: string, signal?: AbortSignal) =>
  call('POST /validate_discount_code', { body: { code } }, signal ? { signal } : {});

/** Saves the address and sets it on the open order in one call; answers the profile. */
export const addOrderAddress = (address: InputOf<Contract['POST /addresses']>['body'] & { lab_order_id: string; update_address_on_order: true }) =>
  call('POST /addresses', { body: address }, { idempotencyKey: newId() });

/** A card typed at checkout: saved with the provider (unkept) and selected for the order; answers the profile. */
export const createOrderCard = (tokenId: string, orderGuid: string) =>
  call('POST /accounts/create_card', { body: { token_id: tokenId, lab_order_id: orderGuid } }, { idempotencyKey: newId() });

/**
 * Places the order. The caller keeps `idempotencyKey` for one attempt: a retry after no answer
 * sends the same key, so the lab charges once however often the request arrives.
 */
export const placeOrder = (orderGuid: string, saveCard: boolean, idempotencyKey: string) =>
  call('POST /lab_orders/:guid/checkout', { params: { guid: orderGuid }, body: { save_card: saveCard } }, { idempotencyKey });
