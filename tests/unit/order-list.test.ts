import { describe, expect, it } from 'vitest';
import { groupOrdersByDate, matchesOrderSearch, orderCardDate, orderDateHeading, type OrderSummary } from '../../src/domain/order-list.ts';

const order = (o: Partial<OrderSummary>): OrderSummary => ({
  guid: 'g-1',
  order_name: 'Wedding',
  status: 'open',
  paid_at: null,
  updated_at: '2026-03-04T15:00:00Z',
  ...o,
});

describe('order search', () => {
  it('matches trimmed, case-insensitive, literal text in the listed fields', () => {
    const o = order({ order_name: 'Smith Wedding', photographer_business: 'Light & Co.', external_order_id: 'EXT-9' });
    expect(matchesOrderSearch(o, '  smith ')).toBe(true);
    expect(matchesOrderSearch(o, 'OPEN')).toBe(true);
    expect(matchesOrderSearch(o, 'light & co.')).toBe(true);
    expect(matchesOrderSearch(o, 'ext-9')).toBe(true);
    expect(matchesOrderSearch(o, 'paid')).toBe(false);
    expect(matchesOrderSearch(o, '.*')).toBe(false);
    expect(matchesOrderSearch(o, '   ')).toBe(true);
  });
});

describe('date headings', () => {
  it("reads '{Month day, year} ORDERS' in capitals, from the paid date when present", () => {
    expect(orderDateHeading('2026-03-04T15:00:00Z', 'UTC')).toBe('MARCH 4, 2026 ORDERS');
    const groups = groupOrdersByDate(
      [
        order({ guid: 'a', updated_at: '2026-03-04T10:00:00Z' }),
        order({ guid: 'b', updated_at: '2026-01-01T10:00:00Z', paid_at: '2026-03-05T09:00:00Z' }),
        order({ guid: 'c', updated_at: '2026-03-04T18:00:00Z' }),
      ],
      'UTC',
    );
    expect(groups.map((g) => [g.heading, g.orders.map((o) => o.guid)])).toEqual([
      ['MARCH 5, 2026 ORDERS', ['b']],
      ['MARCH 4, 2026 ORDERS', ['c', 'a']],
    ]);
  });

  it('card dates are long US dates with time, in capitals', () => {
    expect(orderCardDate('2026-03-04T15:05:00Z', 'UTC')).toBe('MARCH 4, 2026 AT 3:05 PM');
  });
});
