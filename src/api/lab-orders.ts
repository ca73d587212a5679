import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { call } from './call.ts';

/** A page of the orders list as the lab answers it (src/contract/lab-orders.ts). */
export type LabOrderList = AnswerOf<Contract['GET /lab_orders']>;
export type ListMeta = LabOrderList['meta'];

type ListItemAttributes = LabOrderList['data'][number]['attributes'];
/** The summary every order has; the list card's fields below it came with issue 13. */
type SummaryKey = 'id' | 'guid' | 'order_name' | 'status' | 'created_at' | 'updated_at' | 'paid_at' | 'photographer_id' | 'photographer_name' | 'photographer_business' | 'photographer_email';

/**
 * An order of the list as the screens read it: the card's fields are optional, because a copy the
 * device kept offline by an older version lacks them.
 */
export type LabOrderListAttributes = Pick<ListItemAttributes, SummaryKey> & Partial<Omit<ListItemAttributes, SummaryKey>>;

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
  // Empty values are left out, so the first page's address is the bare one the early script asks for (early-get.ts).
  const query = {
    ...(opts.search ? { search: opts.search } : {}),
    ...(opts.cursor ? { cursor: opts.cursor } : {}),
    ...(opts.filters ? { filters: opts.filters } : {}),
    ...(opts.photographerId ? { photographer_id: opts.photographerId } : {}),
    ...(opts.urgent ? { urgent: 'true' as const } : {}),
    ...(opts.perPage ? { per_page: opts.perPage } : {}),
  };
  return call('GET /lab_orders', { query }, opts.signal ? { signal: opts.signal } : {});
}
