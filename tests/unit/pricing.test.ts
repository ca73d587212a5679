import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, groupThousands, toCents, toDollars } from '../../src/domain/money.ts';
import { BOUTIQUE_PACKAGING_CENTS, SHIPPING_CENTS, discountCents, finishingCents, linePriceCents, orderTotals, type OrderPriceInput } from '../../src/domain/pricing.ts';

describe('money', () => {
  it.each([
    ['12.34', 1234],
    ['0.65', 65],
    [9.8, 980],
    [1.005, 101],
    ['3', 300],
    ['.5', 50],
    ['-2.50', -250],
    [0.1 + 0.2, 30],
  ])('toCents(%s) = %i', (dollars, cents) => {
    expect(toCents(dollars)).toBe(cents);
  });

  it('refuses what is not an amount', () => {
    for (const bad of ['', 'abc', '1.2.3', '$5']) expect(() => toCents(bad)).toThrow(RangeError);
  });

  it('formats with $ and 2 decimals', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(5)).toBe('$0.05');
    expect(formatMoney(123456)).toBe('$1,234.56');
    expect(formatMoney(-250)).toBe('-$2.50');
  });

  it('groups thousands as en-US does, without Intl', () => {
    const us = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    for (const n of [0, 7, 999, 1000, 12345, 999999, 1000000, 123456789012]) expect(groupThousands(n)).toBe(us.format(n));
    expect(groupThousands(-1234)).toBe('-1,234');
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => groupThousands(n) === us.format(n)));
    expect(formatMoney(123456789)).toBe('$1,234,567.89');
  });

  it('cents survive the trip to dollars and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (cents) => {
        expect(toCents(toDollars(cents))).toBe(cents);
      }),
    );
  });
});

describe('line prices', () => {
  it('are (print price + finishing price) × quantity', () => {
    expect(linePriceCents({ printCents: 310, finishingCents: finishingCents(8950, [1300, 0, 1200]), quantity: 2 })).toBe((310 + 8950 + 1300 + 1200) * 2);
  });

  it('refuse a quantity that is not a whole number of 1 or more', () => {
    for (const quantity of [0, -1, 1.5, Number.NaN]) expect(() => linePriceCents({ printCents: 100, finishingCents: 0, quantity })).toThrow(RangeError);
  });
});

const cents = fc.integer({ min: 0, max: 5_000_000 });
const orderInput: fc.Arbitrary<OrderPriceInput> = fc.record({
  lines: fc.array(fc.record({ printCents: cents, finishingCents: cents, quantity: fc.integer({ min: 1, max: 500 }) }), { maxLength: 40 }),
  discountCents: fc.integer({ min: -1000, max: 50_000_000 }),
  creditRequestedCents: fc.integer({ min: -1000, max: 50_000_000 }),
  creditAvailableCents: fc.integer({ min: 0, max: 50_000_000 }),
  localPickup: fc.boolean(),
  boutiquePackagingCents: fc.integer({ min: 0, max: 10_000 }),
});

describe('order totals (properties)', () => {
  it('the total is never negative and always adds up', () => {
    fc.assert(
      fc.property(orderInput, (input) => {
        const t = orderTotals(input);
        expect(t.total).toBeGreaterThanOrEqual(0);
        expect(t.total).toBe(t.subtotal - t.discount - t.credit + t.shipping + t.boutique);
      }),
    );
  });

  it('credit is never above what is owed nor above what is available, and never negative', () => {
    fc.assert(
      fc.property(orderInput, (input) => {
        const t = orderTotals(input);
        expect(t.credit).toBeGreaterThanOrEqual(0);
        expect(t.credit).toBeLessThanOrEqual(t.subtotal - t.discount + t.shipping + t.boutique);
        expect(t.credit).toBeLessThanOrEqual(input.creditAvailableCents);
      }),
    );
  });

  it('the discount is between 0 and the subtotal', () => {
    fc.assert(
      fc.property(orderInput, (input) => {
        const t = orderTotals(input);
        expect(t.discount).toBeGreaterThanOrEqual(0);
        expect(t.discount).toBeLessThanOrEqual(t.subtotal);
      }),
    );
  });

  it('every figure is a whole number of cents', () => {
    fc.assert(
      fc.property(orderInput, (input) => {
        for (const value of Object.values(orderTotals(input))) expect(Number.isInteger(value)).toBe(true);
      }),
    );
  });

  it('shipping is a flat $10, or nothing with local pickup', () => {
    fc.assert(
      fc.property(orderInput, (input) => {
        expect(orderTotals(input).shipping).toBe(input.localPickup ? 0 : SHIPPING_CENTS);
      }),
    );
    expect(SHIPPING_CENTS).toBe(1000);
  });
});

describe('referral credit', () => {
  it('is a share of the subtotal, rounded to the cent, never negative', async () => {
    const { referralCreditCents } = await import('../../src/domain/pricing.ts');
    expect(referralCreditCents(12345, 10)).toBe(1235);
    expect(referralCreditCents(999, 10)).toBe(100);
    expect(referralCreditCents(-500, 10)).toBe(0);
    expect(referralCreditCents(10000, 0)).toBe(0);
  });
});

describe('discount codes and boutique packaging', () => {
  it('a percent code takes its share of the subtotal, rounded half up to the cent', () => {
    expect(discountCents({ kind: 'percent', percent: 10 }, 12345)).toBe(1235);
    expect(discountCents({ kind: 'percent', percent: 15 }, 999)).toBe(150);
    expect(discountCents({ kind: 'percent', percent: 100 }, 5000)).toBe(5000);
  });

  it('an amount code is worth its amount; orderTotals keeps it within the subtotal', () => {
    expect(discountCents({ kind: 'amount', amountCents: 500 }, 300)).toBe(500);
    const t = orderTotals({ lines: [{ printCents: 300, finishingCents: 0, quantity: 1 }], discountCents: 500, creditRequestedCents: 0, creditAvailableCents: 0, localPickup: false, boutiquePackagingCents: 0 });
    expect(t).toEqual({ subtotal: 300, discount: 300, credit: 0, shipping: SHIPPING_CENTS, boutique: 0, total: SHIPPING_CENTS });
  });

  it('no code is worth nothing', () => {
    expect(discountCents(null, 10000)).toBe(0);
  });

  it('boutique packaging is added once to what is owed, and credit may cover it', () => {
    const base = { lines: [{ printCents: 1000, finishingCents: 500, quantity: 2 }], discountCents: 0, localPickup: true, boutiquePackagingCents: BOUTIQUE_PACKAGING_CENTS };
    expect(orderTotals({ ...base, creditRequestedCents: 0, creditAvailableCents: 0 }).total).toBe(3000 + BOUTIQUE_PACKAGING_CENTS);
    expect(orderTotals({ ...base, creditRequestedCents: 99999, creditAvailableCents: 99999 })).toMatchObject({ credit: 3000 + BOUTIQUE_PACKAGING_CENTS, total: 0 });
  });
});
