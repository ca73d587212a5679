/** The admin's filters of the orders list (orders.md §2, §4, §5, §9; ADMIN-CONTRACT.md Wire). */

/** The wire names of the filters, in the order the buttons show. */
export const ORDER_FILTERS = ['mat', 'mount', 'frame', 'canvas', 'prints', 'api_order', 'test_print', 'boutique', 'hide_open', 'hide_mine'] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

/** On for admins once the list has loaded (orders.md §4); photographers have no filters. */
export const ADMIN_DEFAULT_FILTERS: readonly OrderFilter[] = ['hide_open', 'hide_mine'];

/** The filters turned on or off by one button. */
export function toggleFilter(filters: ReadonlySet<OrderFilter>, filter: OrderFilter): Set<OrderFilter> {
  const next = new Set(filters);
  if (next.has(filter)) next.delete(filter);
  else next.add(filter);
  return next;
}

/** The `filters` query parameter: the filters that are on, in a stable order ('' for none). */
export const filtersParam = (filters: ReadonlySet<OrderFilter>): string => ORDER_FILTERS.filter((f) => filters.has(f)).join(',');
