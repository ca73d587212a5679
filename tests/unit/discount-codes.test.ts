import { describe, expect, it } from 'vitest';
import { lastDayOf, parseAmount, parseCode, parseLastDay, parsePercent, parseUsageLimit } from '../../src/domain/discount-codes.ts';

/** The rules of a new discount code, shared by the admin screen, the API and the command line. */
describe('a new discount code, field by field', () => {
  it('reads good values as typed', () => {
    expect(parseCode('  spring-10 ')).toEqual({ value: 'SPRING-10' });
    expect(parsePercent(' 100 ')).toEqual({ value: 100 });
    expect(parseAmount('$5.5')).toEqual({ value: 550 });
    expect(parseUsageLimit('3')).toEqual({ value: 3 });
    // Works through the whole last day (UTC), and the day reads back the same.
    expect(parseLastDay('2027-01-31')).toEqual({ value: new Date('2027-02-01T00:00:00.000Z') });
    expect(lastDayOf(new Date('2027-02-01T00:00:00.000Z'))).toBe('2027-01-31');
  });

  it.each([
    [parseCode('abc'), 'A discount code is 4 to 40 letters, digits or dashes.'],
    [parseCode('SPRING_10'), 'A discount code is 4 to 40 letters, digits or dashes.'],
    [parsePercent('0'), 'The percent is a whole number from 1 to 100.'],
    [parsePercent('12.5'), 'The percent is a whole number from 1 to 100.'],
    [parseAmount('5.005'), 'The amount is in dollars with at most 2 decimals, such as 5.00.'],
    [parseAmount('0.00'), 'The amount is at least 0.01 dollars.'],
    [parseLastDay('2027-02-30'), 'The last day is a date such as 2027-01-31.'],
    [parseLastDay('31/01/2027'), 'The last day is a date such as 2027-01-31.'],
    [parseUsageLimit('0'), 'The usage limit is a whole number of 1 or more.'],
    [parseUsageLimit('-1'), 'The usage limit is a whole number of 1 or more.'],
  ])('refuses with the field’s message (%#)', (parsed, problem) => {
    expect(parsed).toEqual({ problem });
  });
});
