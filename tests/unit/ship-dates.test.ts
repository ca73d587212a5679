import { describe, expect, it } from 'vitest';
import { addBusinessDays, formatShipDates, isLabDate, labDateOf, shipByDate, shipDatesFrom } from '../../src/domain/ship-dates.ts';
import { DEFAULT_TURNAROUND, orderTurnaroundDays } from '../../src/domain/turnaround.ts';

const nothing = { hasFrame: false, hasMount: false, hasMat: false, hasCanvas: false, hasPrints: false };

describe('business days', () => {
  it('skip the weekend', () => {
    // Thursday + 2 = Monday; Friday + 1 = Monday.
    expect(addBusinessDays('2026-12-03', 2)).toBe('2026-12-07');
    expect(addBusinessDays('2026-12-04', 1)).toBe('2026-12-07');
    expect(addBusinessDays('2026-12-07', 5)).toBe('2026-12-14');
  });

  it('count an order paid at the weekend from Monday', () => {
    expect(shipByDate('2026-11-28', 2)).toBe('2026-12-01');
    expect(shipByDate('2026-11-29', 2)).toBe('2026-12-01');
    expect(shipByDate('2026-11-27', 2)).toBe('2026-12-01');
  });

  it('cross month and year ends, and leap days', () => {
    expect(addBusinessDays('2026-11-30', 3)).toBe('2026-12-03');
    expect(addBusinessDays('2026-12-30', 3)).toBe('2027-01-04');
    expect(addBusinessDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addBusinessDays('2027-02-26', 1)).toBe('2027-03-01');
  });

  it("skip the lab's holidays, and a weekend after one", () => {
    // Thursday, Thanksgiving off: Wednesday + 1 = Friday; Christmas on a Friday: Thursday + 1 = Monday.
    expect(addBusinessDays('2026-11-25', 1, ['2026-11-26'])).toBe('2026-11-27');
    expect(shipByDate('2026-12-24', 1, ['2026-12-25'])).toBe('2026-12-28');
    expect(addBusinessDays('2026-12-31', 1, ['2027-01-01'])).toBe('2027-01-04');
  });

  it('know a real calendar day', () => {
    expect(isLabDate('2026-12-04')).toBe(true);
    expect(isLabDate('2026-02-30')).toBe(false);
    expect(isLabDate('2026-12-4')).toBe(false);
    expect(isLabDate(20261204)).toBe(false);
    expect(labDateOf(new Date('2026-12-04T23:59:00Z'))).toBe('2026-12-04');
  });
});

describe('ship dates', () => {
  it("add the speed's transit days to the ship-by day", () => {
    expect(shipDatesFrom('2026-12-04', 'standard')).toEqual({ ship_by: '2026-12-04', arrives_from: '2026-12-07', arrives_to: '2026-12-11' });
    expect(shipDatesFrom('2026-12-04', 'overnight')).toEqual({ ship_by: '2026-12-04', arrives_from: '2026-12-07', arrives_to: '2026-12-07' });
    expect(shipDatesFrom('2026-12-04', null)).toEqual({ ship_by: '2026-12-04', arrives_from: null, arrives_to: null });
  });

  it("read in the lab's words", () => {
    expect(formatShipDates(shipDatesFrom('2026-12-04', 'standard'))).toBe('Ships by FRI, DEC 4 · arrives DEC 7–11');
    expect(formatShipDates(shipDatesFrom('2026-12-04', 'two_day'))).toBe('Ships by FRI, DEC 4 · arrives DEC 8');
    expect(formatShipDates(shipDatesFrom('2026-12-29', 'standard'))).toBe('Ships by TUE, DEC 29 · arrives DEC 30–JAN 5');
    expect(formatShipDates(shipDatesFrom('2026-12-04', null))).toBe('Ready for pickup by FRI, DEC 4');
  });
});

describe('turnaround', () => {
  it("is the order's slowest family", () => {
    expect(orderTurnaroundDays({ ...nothing, hasPrints: true }, DEFAULT_TURNAROUND)).toBe(DEFAULT_TURNAROUND.prints);
    expect(orderTurnaroundDays({ ...nothing, hasPrints: true, hasMat: true }, DEFAULT_TURNAROUND)).toBe(DEFAULT_TURNAROUND.mounted);
    expect(orderTurnaroundDays({ ...nothing, hasCanvas: true, hasFrame: true }, { prints: 1, mounted: 2, canvas: 9, framed: 4 })).toBe(9);
    expect(orderTurnaroundDays(nothing, DEFAULT_TURNAROUND)).toBe(DEFAULT_TURNAROUND.prints);
  });
});
