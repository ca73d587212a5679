import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { groupOrdersByDate, matchesOrderSearch, orderCardDate, orderDateHeading, type OrderSummary } from '../../src/client-rules/order-list.ts';

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
    expect(orderCardDate('2026-03-04T00:05:59Z', 'UTC')).toBe('MARCH 4, 2026 AT 12:05 AM');
    expect(orderCardDate('2026-12-31T12:00:00Z', 'UTC')).toBe('DECEMBER 31, 2026 AT 12:00 PM');
    expect(orderCardDate('not a date')).toBe('INVALID DATE');
  });

  const zoneAtStart = process.env.TZ;
  afterEach(() => {
    if (zoneAtStart === undefined) delete process.env.TZ;
    else process.env.TZ = zoneAtStart;
  });

  it('reads the hours around daylight saving changes, midnight and noon in the device zone', () => {
    process.env.TZ = 'America/New_York';
    expect(orderCardDate('2026-03-08T06:30:00Z')).toBe('MARCH 8, 2026 AT 1:30 AM');
    expect(orderCardDate('2026-03-08T07:30:00Z')).toBe('MARCH 8, 2026 AT 3:30 AM');
    expect(orderCardDate('2026-11-01T05:30:00Z')).toBe('NOVEMBER 1, 2026 AT 1:30 AM');
    expect(orderCardDate('2026-11-01T06:30:00Z')).toBe('NOVEMBER 1, 2026 AT 1:30 AM');
    expect(orderCardDate('2026-11-23T05:00:00Z')).toBe('NOVEMBER 23, 2026 AT 12:00 AM');
    expect(orderCardDate('2026-11-23T17:00:00Z')).toBe('NOVEMBER 23, 2026 AT 12:00 PM');
    expect(orderDateHeading('2026-11-23T04:59:00Z')).toBe('NOVEMBER 22, 2026 ORDERS');
  });

  // Written out by hand (Intl's first date format costs the page's first render a long task): the
  // text must stay Intl's en-US, in the device's zone (Node follows TZ set at run time), across
  // DST changes, half-hour zones and the date line.
  it.each(['UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Pacific/Kiritimati', 'Europe/London'])('reads as Intl en-US does, in %s', (zone) => {
    process.env.TZ = zone;
    const DAY: Intl.DateTimeFormatOptions = { month: 'long', day: 'numeric', year: 'numeric' };
    const day = new Intl.DateTimeFormat('en-US', DAY);
    const dayAndTime = new Intl.DateTimeFormat('en-US', { ...DAY, hour: 'numeric', minute: '2-digit' });
    const utc = new Intl.DateTimeFormat('en-US', { ...DAY, hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
    // 1971 to 2099, to the millisecond.
    fc.assert(
      fc.property(fc.integer({ min: 365 * 86_400_000, max: 4_102_444_800_000 - 1 }), (ms) => {
        const iso = new Date(ms).toISOString();
        expect(orderCardDate(iso)).toBe(dayAndTime.format(ms).toUpperCase());
        expect(orderDateHeading(iso)).toBe(`${day.format(ms).toUpperCase()} ORDERS`);
        expect(orderCardDate(iso, 'UTC')).toBe(utc.format(ms).toUpperCase());
      }),
      { numRuns: 2000 },
    );
  });
});
