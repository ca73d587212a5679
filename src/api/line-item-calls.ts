/**
 * The line-item calls of the builder, the review and the preview (docs/api.md §9, one
 * typed function per endpoint, over a request function. The page binds them to the app's HTTP
 * client (src/api/line-items.ts); the service worker, which has no local storage and so cannot
 * load that client, binds them to its own (src/offline/sw-request.ts). Both throw ApiError-shaped
 * failures. This file imports nothing that needs a page.
 */
import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import type { LineItemPayload } from '../domain/line-item-payload.ts';
import { callsThrough, type Requester } from './typed-call.ts';

export type { CallOptions, Requester } from './typed-call.ts';
export type { Method as RequestMethod } from '../contract/endpoint.ts';

/** retrieve_full_order; also the answer of update_quantity, of a line item's delete and of PATCH /lab_orders/:guid. */
export type FullOrder = AnswerOf<Contract['GET /lab_orders/:guid/retrieve_full_order']>;
/** The order's figures as retrieve_full_order carries them (dollars), beside the summary fields. */
export type FullOrderAttributes = FullOrder['data']['attributes'];
export type PostedLineItems = AnswerOf<Contract['POST /lab_orders/:guid/line_items']>;
export type UpdatedLineItem = AnswerOf<Contract['PATCH /lab_orders/:guid/line_items/:lineItemGuid']>;

export function lineItemCalls(request: Requester) {
  const call = callsThrough(request);
  return {
    retrieveFullOrder: (orderGuid: string, signal?: AbortSignal) =>
      call('GET /lab_orders/:guid/retrieve_full_order', { params: { guid: orderGuid }, query: {} }, signal ? { signal } : {}),

    /** One page of the order's line items (with the order): `meta.line_items_next_cursor` goes on. */
    retrieveFullOrderPage: (orderGuid: string, perPage: number, cursor: string | null) =>
      call('GET /lab_orders/:guid/retrieve_full_order', { params: { guid: orderGuid }, query: { line_items_per_page: perPage, ...(cursor ? { line_items_cursor: cursor } : {}) } }),

    /** 1..30 line items (LINE_ITEM_BATCH_SIZE); each keeps its client-made guid on the lab too. */
    postLineItems: (orderGuid: string, lineItems: LineItemPayload[], idempotencyKey: string) =>
      call('POST /lab_orders/:guid/line_items', { params: { guid: orderGuid }, body: { line_items: lineItems } }, { idempotencyKey }),

    updateLineItem: (orderGuid: string, lineItem: LineItemPayload, idempotencyKey: string) =>
      call('PATCH /lab_orders/:guid/line_items/:lineItemGuid', { params: { guid: orderGuid, lineItemGuid: lineItem.guid }, body: { line_items: [lineItem] } }, { idempotencyKey }),

    updateQuantity: (lineItemGuid: string, quantity: number, idempotencyKey: string) =>
      call('PATCH /line_items/:guid/update_quantity', { params: { guid: lineItemGuid }, body: { line_items: [{ quantity }] } }, { idempotencyKey }),

    deleteLineItem: (lineItemGuid: string, idempotencyKey: string) => call('DELETE /line_items/:guid', { params: { guid: lineItemGuid } }, { idempotencyKey }),

    /** PATCH /lab_orders/:id { type, value }: e.g. { type: 'updated_at', value: 'now' }. */
    updateLabOrder: (orderGuid: string, type: string, value: string | number | boolean, idempotencyKey: string) =>
      call('PATCH /lab_orders/:guid', { params: { guid: orderGuid }, body: { type, value } }, { idempotencyKey }),
  };
}

export type LineItemCalls = ReturnType<typeof lineItemCalls>;
