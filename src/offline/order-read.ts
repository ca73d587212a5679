/**
 * Reads a whole order from the lab, a page of line items at a time. The page's refresh
 * (order-store.ts) and the outbox drain (outbox-drain.ts, also run by the service worker) both
 * read through it, so it imports nothing that needs a page.
 */
import type { FullOrder, LineItemCalls } from '../api/line-item-calls.ts';

// Line items per answer when the device reads an order: a 1,000-photo order comes in 5 answers
// rather than one five times the size, each signing only its own photos (the lab takes up to 500).
export const LINE_ITEM_READ_PAGE = 200;
// A cart longer than this many pages is not a real one (10,000 line items): stop reading.
const MAX_READ_PAGES = 50;

/** The whole order, read a page of line items at a time; the order's attributes of the last page. */
export async function readWholeOrder(calls: LineItemCalls, orderGuid: string): Promise<FullOrder> {
  let cursor: string | null = null;
  const items: FullOrder['data']['line_items'] = [];
  for (let page = 0; page < MAX_READ_PAGES; page++) {
    const answer: FullOrder = await calls.retrieveFullOrderPage(orderGuid, LINE_ITEM_READ_PAGE, cursor);
    items.push(...answer.data.line_items);
    const next = answer.meta?.['line_items_next_cursor'];
    cursor = typeof next === 'string' && next ? next : null;
    if (!cursor) return { ...answer, data: { ...answer.data, line_items: items } };
  }
  throw new Error(`The order ${orderGuid} has more than ${MAX_READ_PAGES * LINE_ITEM_READ_PAGE} line items.`);
}
