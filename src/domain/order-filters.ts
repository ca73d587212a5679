/**
 * The admin's filters of the orders list (docs/orders.md §2, §4, §5, §9; docs/api.md §6).
 * In the early chunk (vite.config.ts EARLY_MODULES): the script that asks for the list's first
 * page before the app reads ADMIN_OPENING_FILTERS, so this module imports nothing.
 */

/** The wire names of the filters, in the order the buttons show. */
export const ORDER_FILTERS = ['mat', 'mount', 'frame', 'canvas', 'prints', 'api_order', 'test_print', 'boutique', 'hide_open', 'hide_mine'] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

/** On for admins once the list has loaded (docs/orders.md §4); photographers have no filters. */
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

/** The `filters` an admin's list is first asked for (by the early script and by the router). */
export const ADMIN_OPENING_FILTERS: string = filtersParam(new Set(ADMIN_DEFAULT_FILTERS));
