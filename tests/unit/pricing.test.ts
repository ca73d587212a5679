import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, groupThousands, toCents, toDollars } from '../../src/domain/money.ts';
import { DEFAULT_SHIPPING_SPEED_CENTS } from '../../src/domain/shipping-speeds.ts';
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
  shippingSpeedCents: fc.integer({ min: 0, max: 20_000 }),
  dropShipFeeCents: fc.integer({ min: 0, max: 5_000 }),
  boutiquePackagingCents: fc.integer({ min: 0, max: 10_000 }),
});

describe('order totals (properties)', () => {
  it('the total is never negative and always adds up', () => {
    fc.assert(
      fc.property(orderInput, (input) => {
        const t = orderTotals(input);
        expect(t.total).toBeGreaterThanOrEqual(0);
        expect(t.total).toBe(t.subtotal - t.discount - t.credit + t.shipping + t.dropShip + t.boutique);
        expect(t.prints + t.finishing).toBe(t.subtotal);
      }),
    );
  });

  it('credit is never above what is owed nor above what is available, and never negative', () => {
    fc.assert(
      fc.property(orderInput, (input) => {
        const t = orderTotals(input);
        expect(t.credit).toBeGreaterThanOrEqual(0);
        expect(t.credit).toBeLessThanOrEqual(t.subtotal - t.discount + t.shipping + t.dropShip + t.boutique);
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

  it("shipping is the chosen speed's price and the drop-ship fee is added once; local pickup ships nothing", () => {
    fc.assert(
      fc.property(orderInput, (input) => {
        const t = orderTotals(input);
        expect(t.shipping).toBe(input.localPickup ? 0 : input.shippingSpeedCents);
        expect(t.dropShip).toBe(input.localPickup ? 0 : input.dropShipFeeCents);
      }),
    );
  });

  it("standard defaults to the spec's flat $10; the air services cost more, overnight most", () => {
    expect(SHIPPING_CENTS).toBe(1000);
    expect(DEFAULT_SHIPPING_SPEED_CENTS.standard).toBe(SHIPPING_CENTS);
    expect(DEFAULT_SHIPPING_SPEED_CENTS.two_day).toBeGreaterThan(DEFAULT_SHIPPING_SPEED_CENTS.standard);
    expect(DEFAULT_SHIPPING_SPEED_CENTS.overnight).toBeGreaterThan(DEFAULT_SHIPPING_SPEED_CENTS.two_day);
  });

  it('an overnight drop-ship order adds up to the cent, prints and finishing apart', () => {
    const t = orderTotals({
      lines: [
        { printCents: 1295, finishingCents: 0, quantity: 3 },
        { printCents: 4100, finishingCents: 8950, quantity: 1 },
      ],
      discountCents: 1000,
      creditRequestedCents: 250,
      creditAvailableCents: 250,
      localPickup: false,
      shippingSpeedCents: 3900,
      dropShipFeeCents: 500,
      boutiquePackagingCents: BOUTIQUE_PACKAGING_CENTS,
    });
    expect(t).toEqual({ subtotal: 16935, prints: 7985, finishing: 8950, discount: 1000, credit: 250, shipping: 3900, dropShip: 500, boutique: 1500, total: 16935 - 1000 - 250 + 3900 + 500 + 1500 });
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
    const t = orderTotals({ lines: [{ printCents: 300, finishingCents: 0, quantity: 1 }], discountCents: 500, creditRequestedCents: 0, creditAvailableCents: 0, localPickup: false, shippingSpeedCents: SHIPPING_CENTS, dropShipFeeCents: 0, boutiquePackagingCents: 0 });
    expect(t).toEqual({ subtotal: 300, prints: 300, finishing: 0, discount: 300, credit: 0, shipping: SHIPPING_CENTS, dropShip: 0, boutique: 0, total: SHIPPING_CENTS });
  });

  it('no code is worth nothing', () => {
    expect(discountCents(null, 10000)).toBe(0);
  });

  it('boutique packaging is added once to what is owed, and credit may cover it', () => {
    const base = { lines: [{ printCents: 1000, finishingCents: 500, quantity: 2 }], discountCents: 0, localPickup: true, shippingSpeedCents: 3900, dropShipFeeCents: 500, boutiquePackagingCents: BOUTIQUE_PACKAGING_CENTS };
    expect(orderTotals({ ...base, creditRequestedCents: 0, creditAvailableCents: 0 }).total).toBe(3000 + BOUTIQUE_PACKAGING_CENTS);
    expect(orderTotals({ ...base, creditRequestedCents: 99999, creditAvailableCents: 99999 })).toMatchObject({ credit: 3000 + BOUTIQUE_PACKAGING_CENTS, total: 0 });
  });
});
