import { describe, expect, it } from 'vitest';
import {
  CARD_NUMBER,
  CVC_RULE,
  EXPIRY_RULE,
  QUANTITY_AT_LEAST_ONE,
  QUANTITY_AT_MOST,
  QUANTITY_WHOLE,
  REFERRAL_CODE_RULE,
  cvcProblem,
  expiryParts,
  expiryProblem,
  ownReferralCodeProblem,
  quantityProblem,
  separatedDigitsProblem,
} from '../../src/domain/validation.ts';

// Issue 31: each check reads the text as typed and says what is wrong; it never changes the text.
describe('the TEST MODE card field', () => {
  it('says a letter in the card number at once, a short or long number once the field is left', () => {
    expect(separatedDigitsProblem('4242 42a2', false, CARD_NUMBER)).toBe('A card number has digits only: "a" is not one.');
    expect(separatedDigitsProblem('4242 4242', false, CARD_NUMBER)).toBeNull();
    expect(separatedDigitsProblem('4242 4242', true, CARD_NUMBER)).toBe('A card number is 13 to 19 digits (this one has 8).');
    expect(separatedDigitsProblem('4'.repeat(20), true, CARD_NUMBER)).toBe('A card number is 13 to 19 digits (this one has 20).');
    expect(separatedDigitsProblem('4242-4242-4242-4242', true, CARD_NUMBER)).toBeNull();
    expect(separatedDigitsProblem(' ', true, CARD_NUMBER)).toBeNull();
  });

  it('says a letter or a fifth digit of the CVC at once, two digits once the field is left', () => {
    expect(cvcProblem('12a', false)).toBe(CVC_RULE);
    expect(cvcProblem('12345', false)).toBe(CVC_RULE);
    expect(cvcProblem('12', false)).toBeNull();
    expect(cvcProblem('12', true)).toBe(CVC_RULE);
    expect(cvcProblem('123', true)).toBeNull();
    expect(cvcProblem('1234', true)).toBeNull();
  });

  it('reads the expiry as MM/YY, says a letter at once and another shape once the field is left', () => {
    expect(expiryParts('12/34')).toEqual({ month: 12, year: 34 });
    expect(expiryParts(' 01 / 30 ')).toEqual({ month: 1, year: 30 });
    expect(expiryParts('1234')).toBeNull();
    expect(expiryProblem('1x/34', false)).toBe(EXPIRY_RULE);
    expect(expiryProblem('12/3', false)).toBeNull();
    expect(expiryProblem('12/3', true)).toBe(EXPIRY_RULE);
    expect(expiryProblem('12/34', true)).toBeNull();
  });
});

describe("the calculator's quantity", () => {
  it('is a whole number from 1 to the lab’s largest, in the lab’s words', () => {
    expect(quantityProblem('2a', false)).toBe(QUANTITY_WHOLE);
    expect(quantityProblem('1.5', false)).toBe(QUANTITY_WHOLE);
    expect(quantityProblem('-1', false)).toBe(QUANTITY_WHOLE);
    expect(quantityProblem('0', false)).toBe(QUANTITY_AT_LEAST_ONE);
    expect(quantityProblem('10001', false)).toBe(QUANTITY_AT_MOST);
    expect(QUANTITY_AT_MOST).toBe('Quantity must be at most 10,000.');
    expect(quantityProblem('', false)).toBeNull();
    expect(quantityProblem('', true)).toBe(QUANTITY_AT_LEAST_ONE);
    expect(quantityProblem(' 3 ', true)).toBeNull();
    expect(quantityProblem('10000', true)).toBeNull();
  });
});

describe("a photographer's own referral code", () => {
  it('says a character other than a letter or digit, or a 31st, at once, and a code under 3 once the field is left', () => {
    expect(ownReferralCodeProblem('parks-1', false)).toBe(REFERRAL_CODE_RULE);
    expect(ownReferralCodeProblem('A'.repeat(31), false)).toBe(REFERRAL_CODE_RULE);
    expect(ownReferralCodeProblem('ab', false)).toBeNull();
    expect(ownReferralCodeProblem('ab', true)).toBe(REFERRAL_CODE_RULE);
    expect(ownReferralCodeProblem(' parks1 ', true)).toBeNull();
    expect(ownReferralCodeProblem('A'.repeat(30), true)).toBeNull();
  });
});
