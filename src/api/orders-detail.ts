/**
 * The order detail's reads (docs/orders.md §2 Order detail, docs/api.md §6): one order with
 * its photos (and, for admins, the lab's fields), and the full order with line items and the
 * checkout figures. One typed function per call.
 */
import type { ServerLineItem } from '../domain/line-items.ts';
import { API, routePath } from '../domain/paths.ts';
import type { Photo } from '../domain/photo-upload-wire.ts';
import { apiRequest } from './client.ts';
import type { FullOrder } from './line-item-calls.ts';
import { retrieveFullOrder } from './line-items.ts';
import type { LabOrderListAttributes, ListMeta } from './lab-orders.ts';

export interface ShippingAddress {
  guid: string;
  recipient: string | null;
  street: string;
  street_2: string | null;
  city: string;
  state_province: string;
  zip: string;
  phone_number: string | null;
  email: string | null;
}

/** One entry of the order's history (admins): who did what, when. */
export interface OrderEvent {
  kind: string;
  actor_guid: string | null;
  actor_name: string | null;
  from: string | null;
  to: string | null;
  detail: string | null;
  created_at: string;
}

export interface OrderRefund {
  amount: number;
  note: string | null;
  /** 'pending' until the provider's answer is recorded (an interrupted one settles within minutes). */
  status?: 'pending' | 'succeeded';
  actor_guid: string | null;
  provider_refund_id: string | null;
  created_at: string;
}

/** A custom album order (docs/orders.md §3 Album), read-only. */
export interface AlbumLineItem {
  id: string;
  guid: string;
  description: string;
  outer_fabric_name: string | null;
  inner_fabric_name: string | null;
  font: string | null;
  spread_quantity: number;
  stamping: string | null;
  upper_text_value: string | null;
  upper_text_font_size: number | null;
  lower_text_value: string | null;
  lower_text_font_size: number | null;
  text_font: string | null;
  text_color: string | null;
  total_price: number;
  album_photos: { photo_guid: string; photo_file_name: string; photo_url: string; photo_full_url: string }[];
}

/** An order as the detail shows it; money in dollars. The admin-only fields are absent for photographers. */
export interface OrderDetailAttributes
  extends Pick<
    LabOrderListAttributes,
    'guid' | 'order_name' | 'status' | 'created_at' | 'updated_at' | 'paid_at' | 'photographer_id' | 'photographer_name' | 'photographer_business' | 'photographer_email'
  > {
  subtotal: number;
  discount: number;
  credit_applied: number;
  shipping_total: number;
  total: number;
  notes: string | null;
  discount_code?: { code: string } | null;
  boutique_shipping?: boolean;
  boutique_shipping_note?: string | null;
  boutique_shipping_price?: number;
  local_pickup?: boolean;
  shipping_method?: string | null;
  shipping_address?: ShippingAddress | null;
  selected_card_mask?: string | null;
  tracking_url?: string | null;
  urgent?: boolean;
  color_correction?: 'lab' | 'as_is';
  /** Paid orders: paid_at plus the cancellation window (GET /lab_orders/:guid only). */
  cancel_until?: string | null;
  cancelled_at?: string | null;
  photo_count?: number;
  images?: Photo[];
  album_line_items?: AlbumLineItem[];
  // Admins only.
  internal_notes?: string | null;
  events?: OrderEvent[];
  refunds?: OrderRefund[];
  refund_amount?: number;
  download_all_link?: string | null;
  last_sent_to_vendor_at?: string | null;
  /** The latest vendor send: queued, retrying after a failure, sent, or failed once its retries ran out. */
  vendor_configured?: boolean;
  vendor_send_status?: { state: 'queued' | 'retrying' | 'sent' | 'failed'; detail: string | null; at: string } | null;
  api_order?: boolean;
  api_vendor?: string | null;
  photographer?: { guid: string; name: string; business: string | null; email: string };
}

export interface OrderDetailAnswer {
  data: { id: string; type: 'lab_order'; attributes: OrderDetailAttributes };
  meta: ListMeta;
}

/** GET /lab_orders/:guid: the order, its first photos and (admins) the lab's fields. */
export const getOrderDetail = (guid: string, signal?: AbortSignal) =>
  apiRequest<OrderDetailAnswer>('GET', routePath(API.labOrder, { guid }), signal ? { signal } : {});

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
    order: { ...(full.data.attributes as unknown as OrderDetailAttributes), ...detail.data.attributes },
    lineItems: full.data.line_items,
    isAdmin: detail.meta.current_user_is_admin,
  };
}
