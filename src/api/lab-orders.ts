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
}

export interface LabOrderList {
  data: { id: string; type: 'lab_order'; attributes: LabOrderListAttributes }[];
  meta: ListMeta;
}

/**
 * One page of the orders list, newest first. The first page is asked without parameters (the
 * server's default page size); `cursor` is the previous page's meta.next_cursor; `search` finds
 * orders on every page, not only the loaded ones.
 */
export function getLabOrders(opts: { cursor?: string | null; search?: string; signal?: AbortSignal } = {}) {
  const query = new URLSearchParams();
  if (opts.search) query.set('search', opts.search);
  if (opts.cursor) query.set('cursor', opts.cursor);
  const qs = query.toString();
  return apiRequest<LabOrderList>('GET', qs ? `${API.labOrders}?${qs}` : API.labOrders, opts.signal ? { signal: opts.signal } : {});
}
