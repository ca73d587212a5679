import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesOrderSearch, prepareOrderSearch, type OrderSummary } from '../../src/client-rules/order-list.ts';

/** docs/orders.md §5's rule, field by field: what the kept search text must agree with. */
const fieldByField = (order: OrderSummary, query: string): boolean => {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [order.order_name, order.status, order.api_vendor, order.external_order_id, order.guid, order.photographer_name, order.photographer_business].some(
    (field) => typeof field === 'string' && field.toLowerCase().includes(q),
  );
};
const matchesSearch = matchesOrderSearch;

// Short words over a small alphabet (with capitals, spaces and a dot), so queries often hit.
const word = fc.string({ unit: fc.constantFrom('a', 'B', 'c', 'É', 'é', ' ', '.', '-'), maxLength: 6 });
const maybe = fc.option(word, { nil: null });
const order = fc.record({
  guid: word,
  order_name: word,
  status: word,
  paid_at: fc.constant(null),
  updated_at: fc.constant('2026-03-04T15:00:00Z'),
  photographer_name: maybe,
  photographer_business: maybe,
  api_vendor: maybe,
  external_order_id: maybe,
});

describe('the list search over many orders', () => {
  it('finds exactly what the field-by-field rule finds (docs/orders.md §5), asked again of the same order', () => {
    fc.assert(
      fc.property(order, word, (o: OrderSummary, q) => {
        expect(matchesSearch(o, q)).toBe(fieldByField(o, q));
        // The second ask reads the text kept for this order.
        expect(matchesSearch(o, q)).toBe(fieldByField(o, q));
      }),
      { numRuns: 2000 },
    );
  });

  it('a text prepared ahead (while the list is idle) finds the same as one worked out by the key', () => {
    fc.assert(
      fc.property(order, word, (o: OrderSummary, q) => {
        prepareOrderSearch(o);
        expect(matchesSearch(o, q)).toBe(fieldByField(o, q));
      }),
      { numRuns: 1000 },
    );
  });

  it('never matches across two fields', () => {
    const o: OrderSummary = { guid: 'g', order_name: 'Smith', status: 'open', paid_at: null, updated_at: '2026-03-04T15:00:00Z' };
    expect(matchesSearch(o, 'smith')).toBe(true);
    expect(matchesSearch(o, 'thop')).toBe(false);
    expect(matchesSearch(o, 'th op')).toBe(false);
  });
});
