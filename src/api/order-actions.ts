/**
 * The photographer's own order actions of issue 13 (docs/api.md §6), one typed function
 * per call. They need a connection (money moves, or a new order is made on the lab): they go
 * straight to the lab, never through the outbox. The colour-correction choice is a PATCH type of
 * checkout's call (updateCheckout in checkout.ts).
 */
import { API, routePath } from '../domain/paths.ts';
import type { CheckoutOrder } from './checkout.ts';
import { apiRequest } from './client.ts';

const key = () => crypto.randomUUID();

/** POST /lab_orders/:guid/reorder: a new open order with the same photos (no upload) and line items. */
export const reorderOrder = (guid: string, orderName: string) =>
  apiRequest<CheckoutOrder>('POST', routePath(API.reorder, { guid }), { body: { order_name: orderName }, idempotencyKey: key() });

/** POST /lab_orders/:guid/cancel: a paid order within the window; answers the cancelled order. */
export const cancelOrder = (guid: string) => apiRequest<CheckoutOrder>('POST', routePath(API.cancelOrder, { guid }), { body: {}, idempotencyKey: key() });
