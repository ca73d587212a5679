import { API } from '../domain/paths.ts';
import { apiRequest } from './client.ts';

export interface LabOrderListAttributes {
  id: number;
  guid: string;
  order_name: string;
  status: string;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  photographer_id: string;
  photographer_name: string;
  photographer_business: string;
  photographer_email: string;
  // Issue 13 (docs/api.md §6); optional: a copy kept offline by an older version lacks them.
  urgent?: boolean;
  has_notes?: boolean;
  /** Admins only; false for photographers. */
  has_admin_notes?: boolean;
  has_frame?: boolean;
  has_mount?: boolean;
  has_mat?: boolean;
  has_canvas?: boolean;
  api_order?: boolean;
  test_print?: boolean;
  boutique_shipping?: boolean;
  local_pickup?: boolean;
  shipping_method?: string | null;
  tracking_url?: string | null;
  total?: number;
  cover_photo_url?: string | null;
  /** Admins only. */
  download_all_link?: string | null;
  color_correction?: 'lab' | 'as_is';
  line_item_count?: number;
  api_vendor?: string | null;
  external_order_id?: string | null;
}

export interface ListMeta {
  current_user_is_admin: boolean;
  current_user_is_api_vendor: boolean;
  view_as_photographer_id: string | null;
  view_as_photographer: string | null;
  /** How many orders match, all pages together. */
  total: number;
  per_page: number;
  /** Ask with this for the next page; null on the last. */
  next_cursor: string | null;
  /** Admins: how many orders are flagged urgent. */
  urgent_count?: number;
}

export interface LabOrderList {
  data: { id: string; type: 'lab_order'; attributes: LabOrderListAttributes }[];
  meta: ListMeta;
}

/**
 * One page of the orders list, newest first. The first page is asked without parameters (the
 * server's default page size); `cursor` is the previous page's meta.next_cursor; `search` finds
 * orders on every page, not only the loaded ones; the admin's filters, photographer and urgent
 * narrow the list on the lab.
 */
export interface OrderListQuery {
  cursor?: string | null;
  search?: string;
  /** Admins: the filters that are on, comma-separated (order-filters.ts filtersParam). */
  filters?: string;
  /** Admins: one photographer's orders (the merge selection). */
  photographerId?: string | null;
  /** Admins: only urgent orders (the 'Urgent Orders:' section). */
  urgent?: boolean;
  perPage?: number;
  signal?: AbortSignal;
}

export function getLabOrders(opts: OrderListQuery = {}) {
  const query = new URLSearchParams();
  if (opts.search) query.set('search', opts.search);
  if (opts.cursor) query.set('cursor', opts.cursor);
  if (opts.filters) query.set('filters', opts.filters);
  if (opts.photographerId) query.set('photographer_id', opts.photographerId);
  if (opts.urgent) query.set('urgent', 'true');
  if (opts.perPage) query.set('per_page', String(opts.perPage));
  const qs = query.toString();
  return apiRequest<LabOrderList>('GET', qs ? `${API.labOrders}?${qs}` : API.labOrders, opts.signal ? { signal: opts.signal } : {});
}
