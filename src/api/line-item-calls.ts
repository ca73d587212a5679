/**
 * The line-item calls of the builder, the review and the preview (docs/api.md §9, one
 * typed function per endpoint, over a request function. The page binds them to the app's HTTP
 * client (src/api/line-items.ts); the service worker, which has no local storage and so cannot
 * load that client, binds them to its own (src/offline/sw-request.ts). Both throw ApiError-shaped
 * failures. This file imports nothing that needs a page.
 */
import type { LineItemPayload } from '../domain/line-item-payload.ts';
import type { ServerLineItem } from '../domain/line-items.ts';
import { API, routePath } from '../domain/paths.ts';


export type RequestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** What apiRequest (src/api/client.ts) is, and what the worker's request function must be. */
export type Requester = <T>(method: RequestMethod, path: string, opts?: CallOptions) => Promise<T>;

/** The order's figures as retrieve_full_order carries them (dollars), beside the summary fields. */
export interface FullOrderAttributes {
  guid?: string;
  order_name: string;
  status: string;
  subtotal: number;
  discount: number;
  credit_applied: number;
  shipping_total: number;
  total: number;
  notes: string | null;
  boutique_shipping?: boolean;
  boutique_shipping_price?: number;
  [field: string]: unknown;
}

/** retrieve_full_order; also the answer of update_quantity and of a line item's delete. */
export interface FullOrder {
  data: { id: string; type: 'lab_order'; attributes: FullOrderAttributes; line_items: ServerLineItem[] };
  meta?: Record<string, unknown>;
}

export interface PostedLineItems {
  data: ServerLineItem[];
  meta?: { order?: Partial<FullOrderAttributes> } & Record<string, unknown>;
}

export interface UpdatedLineItem {
  data: ServerLineItem;
  meta?: { order?: Partial<FullOrderAttributes> } & Record<string, unknown>;
}

export function lineItemCalls(request: Requester) {
  return {
    retrieveFullOrder: (orderGuid: string, signal?: AbortSignal) =>
      request<FullOrder>('GET', routePath(API.retrieveFullOrder, { guid: orderGuid }), signal ? { signal } : {}),

    /** One page of the order's line items (with the order): `meta.line_items_next_cursor` goes on. */
    retrieveFullOrderPage: (orderGuid: string, perPage: number, cursor: string | null) => {
      const query = new URLSearchParams({ line_items_per_page: String(perPage), ...(cursor ? { line_items_cursor: cursor } : {}) });
      return request<FullOrder>('GET', `${routePath(API.retrieveFullOrder, { guid: orderGuid })}?${query.toString()}`);
    },

    /** 1..30 line items (LINE_ITEM_BATCH_SIZE); each keeps its client-made guid on the lab too. */
    postLineItems: (orderGuid: string, lineItems: LineItemPayload[], idempotencyKey: string) =>
      request<PostedLineItems>('POST', routePath(API.orderLineItems, { guid: orderGuid }), {
        body: { line_items: lineItems },
        idempotencyKey,
      }),

    updateLineItem: (orderGuid: string, lineItem: LineItemPayload, idempotencyKey: string) =>
      request<UpdatedLineItem>('PATCH', routePath(API.orderLineItem, { guid: orderGuid, lineItemGuid: lineItem.guid }), {
        body: { line_items: [lineItem] },
        idempotencyKey,
      }),

    updateQuantity: (lineItemGuid: string, quantity: number, idempotencyKey: string) =>
      request<FullOrder>('PATCH', routePath(API.updateQuantity, { guid: lineItemGuid }), {
        body: { line_items: [{ quantity }] },
        idempotencyKey,
      }),

    deleteLineItem: (lineItemGuid: string, idempotencyKey: string) =>
      request<FullOrder>('DELETE', routePath(API.lineItem, { guid: lineItemGuid }), { idempotencyKey }),

    /** PATCH /lab_orders/:id { type, value }: e.g. { type: 'updated_at', value: 'now' }. */
    updateLabOrder: (orderGuid: string, type: string, value: unknown, idempotencyKey: string) =>
      request<unknown>('PATCH', routePath(API.labOrder, { guid: orderGuid }), { body: { type, value }, idempotencyKey }),
  };
}

export type LineItemCalls = ReturnType<typeof lineItemCalls>;
