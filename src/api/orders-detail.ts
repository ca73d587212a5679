/**
 * The order detail's reads (docs/orders.md §2 Order detail, docs/api.md §6): one order with
 * its photos (and, for admins, the lab's fields), and the full order with line items and the
 * checkout figures. One typed function per call.
 */
import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import type { ServerLineItem } from '../contract/line-items.ts';
import { call } from './call.ts';
import type { FullOrder } from './line-item-calls.ts';
import { retrieveFullOrder } from './line-items.ts';

export type { ShippingAddress } from '../contract/shapes.ts';

export type OrderDetailAnswer = AnswerOf<Contract['GET /lab_orders/:guid']>;
type GetOrderAttributes = OrderDetailAnswer['data']['attributes'];

/** An order as the detail shows it: retrieve_full_order's fields under GET's. Money in dollars; the admin-only fields are absent for photographers. */
export type OrderDetailAttributes = FullOrder['data']['attributes'] & GetOrderAttributes;
/** One entry of the order's history (admins): who did what, when. */
export type OrderEvent = NonNullable<GetOrderAttributes['events']>[number];
export type OrderRefund = NonNullable<GetOrderAttributes['refunds']>[number];
/** A custom album order (docs/orders.md §3 Album), read-only. */
export type AlbumLineItem = NonNullable<GetOrderAttributes['album_line_items']>[number];

/** GET /lab_orders/:guid: the order, its first photos and (admins) the lab's fields. */
export const getOrderDetail = (guid: string, signal?: AbortSignal) => call('GET /lab_orders/:guid', { params: { guid } }, signal ? { signal } : {});

export interface OrderDetail {
  order: OrderDetailAttributes;
  lineItems: ServerLineItem[];
  isAdmin: boolean;
}

/**
 * The order detail's data: the order (GET /lab_orders/:guid) beside its line items and checkout
 * choices (retrieve_full_order), asked side by side. Where both carry a field the order's wins.
 */
export async function loadOrderDetail(guid: string, signal?: AbortSignal): Promise<OrderDetail> {
  const [detail, full]: [OrderDetailAnswer, FullOrder] = await Promise.all([getOrderDetail(guid, signal), retrieveFullOrder(guid, signal)]);
  return {
    order: { ...full.data.attributes, ...detail.data.attributes },
    lineItems: full.data.line_items,
    isAdmin: detail.meta.current_user_is_admin,
  };
}
