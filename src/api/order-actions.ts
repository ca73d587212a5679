/**
 * The photographer's own order actions of issue 13 (docs/api.md §6), one typed function
 * per call. They need a connection (money moves, or a new order is made on the lab): they go
 * straight to the lab, never through the outbox. The colour-correction choice is a PATCH type of
 * checkout's call (updateCheckout in checkout.ts).
 */
import { newId } from '../client-rules/ids.ts';
import { call } from './call.ts';

/** POST /lab_orders/:guid/reorder: a new open order with the same photos (no upload) and line items. */
export const reorderOrder = (guid: string, orderName: string) =>
  call('POST /lab_orders/:guid/reorder', { params: { guid }, body: { order_name: orderName } }, { idempotencyKey: newId() });

/** POST /lab_orders/:guid/cancel: a paid order within the window; answers the cancelled order. */
export const cancelOrder = (guid: string) => call('POST /lab_orders/:guid/cancel', { params: { guid } }, { idempotencyKey: newId() });
