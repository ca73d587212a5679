import type { OrderSummary } from '../../domain/order-list.ts';

/**
 * An order's searched fields (orders.md §5) lower-cased once per order object, joined by a
 * character no search box can hold: a key filters 10,000 orders with one `includes` each instead
 * of seven lower-casings (matchesOrderSearch's rule: tests/unit/order-search.test.ts holds the two equal).
 */
const searchTexts = new WeakMap<object, string>();

/** matchesOrderSearch, with the order's text worked out once per order object. */
export function matchesSearch(order: OrderSummary, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  let text = searchTexts.get(order);
  if (text === undefined) {
    text = [order.order_name, order.status, order.api_vendor, order.external_order_id, order.guid, order.photographer_name, order.photographer_business]
      .filter((f): f is string => typeof f === 'string')
      .join('\u0000')
      .toLowerCase();
    searchTexts.set(order, text);
  }
  return text.includes(q);
}
