import { describe, expect, it } from 'vitest';
import { basicInfoProblem, isZip, phoneDigits, ZIP_RULE, zipProblem } from '../../src/domain/validation.ts';

describe('BASIC INFORMATION fields (docs/accounts.md §5)', () => {
  it('says a stray character in the phone at once, and keeps the text as typed', () => {
    expect(basicInfoProblem('phone', '61a5-555', false)).toBe('A phone number has digits only: "a" is not one.');
    expect(basicInfoProblem('phone', '6x1y5', false)).toBe('A phone number has digits only: "x", "y" are not.');
  });

  it('says a short or long phone only once the field is finished with', () => {
    expect(basicInfoProblem('phone', '615', false)).toBeNull();
    expect(basicInfoProblem('phone', '615-555', true)).toBe('A phone number is 7 to 15 digits (this one has 6).');
    expect(basicInfoProblem('phone', '1234567890123456', true)).toBe('A phone number is 7 to 15 digits (this one has 16).');
    expect(basicInfoProblem('phone', '(615) 555-0100', true)).toBeNull();
    expect(basicInfoProblem('phone', '+1 615.555.0100', true)).toBeNull();
  });

  it('sends a phone as its digits', () => {
    expect(phoneDigits('(615) 555-0100')).toBe('6155550100');
  });

  it('holds names to the server’s lengths, and an empty field is never wrong', () => {
    expect(basicInfoProblem('first_name', 'x'.repeat(100), true)).toBeNull();
    expect(basicInfoProblem('first_name', 'x'.repeat(101), false)).toBe('A first name is at most 100 characters (this one has 101).');
    expect(basicInfoProblem('business_name', 'x'.repeat(201), false)).toBe('A business name is at most 200 characters (this one has 201).');
    for (const field of ['first_name', 'last_name', 'business_name', 'phone'] as const) expect(basicInfoProblem(field, '  ', true)).toBeNull();
  });
});

describe('the zip of a shipping address', () => {
  it('says a letter or a sixth character at once, a short zip once the field is left, and nothing of a right one', () => {
    expect(zipProblem('3720a', false)).toBe(ZIP_RULE);
    expect(zipProblem('372011', false)).toBe(ZIP_RULE);
    expect(zipProblem('3720', false)).toBeNull();
    expect(zipProblem('3720', true)).toBe(ZIP_RULE);
    expect(zipProblem(' 37201 ', true)).toBeNull();
    expect(zipProblem('', true)).toBeNull();
    expect(isZip('37201')).toBe(true);
    expect(isZip('3720a')).toBe(false);
  });
});
