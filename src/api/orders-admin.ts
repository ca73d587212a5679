/**
 * The lab's admin calls on one order and the order actions of issue 13 (docs/api.md §6),
 * one typed function per call. Mutations carry an Idempotency-Key made per user action, so a
 * retried request changes nothing twice.
 */
import { newId } from '../client-rules/ids.ts';
import type { adminAddressPayload } from '../client-rules/order-detail.ts';
import type { OrderStatus } from '../domain/order-status.ts';
import { call } from './call.ts';

export type AdminPatch =
  | { type: 'status'; value: OrderStatus; reason?: string }
  | { type: 'tracking_url'; value: string }
  | { type: 'internal_notes'; value: string }
  | { type: 'urgent'; value: boolean };

/** PATCH /lab_orders/:guid with an admin type; the answer is the updated order. */
export const patchOrderAsAdmin = (guid: string, change: AdminPatch) => call('PATCH /lab_orders/:guid', { params: { guid }, body: change }, { idempotencyKey: newId() });

/** POST refund: dollars with 2 decimals and the reason. */
export const refundOrder = (guid: string, refundAmount: number, refundNote: string) =>
  call('POST /lab_orders/:guid/refund', { params: { guid }, body: { refund_amount: refundAmount, refund_note: refundNote } }, { idempotencyKey: newId() });

/** Queues the zip of the order's originals; download_all_link appears once it is ready. */
export const createZipFile = (guid: string) => call('POST /lab_orders/:guid/create_zip_file', { params: { guid } }, { idempotencyKey: newId() });

/** Queues the order's send to the vendor API (retried by the lab). */
export const sendToVendor = (guid: string) => call('POST /lab_orders/:guid/send_to_api', { params: { guid } }, { idempotencyKey: newId() });

/** The admin's correction of the order's shipping address: POST /addresses for that order (the order only). */
export const setOrderAddress = (address: ReturnType<typeof adminAddressPayload>) => call('POST /addresses', { body: address }, { idempotencyKey: newId() });

/** DELETE /lab_orders/:guid: an open order, for good. */
export const deleteOrder = (guid: string) => call('DELETE /lab_orders/:guid', { params: { guid } }, { idempotencyKey: newId() });

/** Merges the second open order into the first (same photographer), removing the second. */
export const mergeOrders = (firstGuid: string, secondGuid: string) =>
  call('POST /lab-orders/merge', { body: { orders: [firstGuid, secondGuid] } }, { idempotencyKey: newId() });

/** POST delays: the order's new promised ship date (YYYY-MM-DD) with the reason the photographer reads. */
export const postDelay = (guid: string, shipBy: string, reason: string) =>
  call('POST /lab_orders/:guid/delays', { params: { guid }, body: { ship_by: shipBy, reason } }, { idempotencyKey: newId() });
