/**
 * The lab's admin calls on one order and the order actions of issue 13 (docs/api.md §6),
 * one typed function per call. Mutations carry an Idempotency-Key made per user action, so a
 * retried request changes nothing twice.
 */
import type { adminAddressPayload } from '../domain/order-detail.ts';
import type { OrderStatus } from '../domain/order-status.ts';
import { API, routePath } from '../domain/paths.ts';
import { apiRequest } from './client.ts';

export type AdminPatch =
  | { type: 'status'; value: OrderStatus; reason?: string }
  | { type: 'tracking_url'; value: string }
  | { type: 'internal_notes'; value: string }
  | { type: 'urgent'; value: boolean };

const key = () => crypto.randomUUID();

/** PATCH /lab_orders/:guid with an admin type; the answer is the updated order. */
export const patchOrderAsAdmin = (guid: string, change: AdminPatch) =>
  apiRequest<{ data: { attributes: Record<string, unknown> } }>('PATCH', routePath(API.labOrder, { guid }), { body: change, idempotencyKey: key() });

/** POST refund: dollars with 2 decimals and the reason. */
export const refundOrder = (guid: string, refundAmount: number, refundNote: string) =>
  apiRequest<unknown>('POST', routePath(API.refundOrder, { guid }), { body: { refund_amount: refundAmount, refund_note: refundNote }, idempotencyKey: key() });

/** Queues the zip of the order's originals; download_all_link appears once it is ready. */
export const createZipFile = (guid: string) => apiRequest<unknown>('POST', routePath(API.createZipFile, { guid }), { body: {}, idempotencyKey: key() });

/** Queues the order's send to the vendor API (retried by the lab). */
export const sendToVendor = (guid: string) => apiRequest<unknown>('POST', routePath(API.sendToApi, { guid }), { body: {}, idempotencyKey: key() });

/** The admin's correction of the order's shipping address: POST /addresses for that order (the order only). */
export const setOrderAddress = (payload: ReturnType<typeof adminAddressPayload>) => apiRequest<unknown>('POST', API.addresses, { body: payload, idempotencyKey: key() });

/** DELETE /lab_orders/:guid: an open order, for good. */
export const deleteOrder = (guid: string) => apiRequest<{ success: true }>('DELETE', routePath(API.labOrder, { guid }), { idempotencyKey: key() });

/** Merges the second open order into the first (same photographer), removing the second. */
export const mergeOrders = (firstGuid: string, secondGuid: string) =>
  apiRequest<unknown>('POST', API.mergeOrders, { body: { orders: [firstGuid, secondGuid] }, idempotencyKey: key() });
