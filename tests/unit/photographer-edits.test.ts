import { describe, expect, it } from 'vitest';
import { creditValue, emailProblem, passwordProblem, photographerSearch } from '../../src/features/photographers/photographer-edits.ts';

describe('admin photographer edits', () => {
  it('searches from 3 characters', () => {
    expect(photographerSearch('an')).toBe('');
    expect(photographerSearch(' ans ')).toBe('ans');
  });
  it('checks an email', () => {
    expect(emailProblem('ansel@zone.com')).toBeNull();
    expect(emailProblem('ansel')).not.toBeNull();
    expect(emailProblem('a@b')).not.toBeNull();
  });
  it('asks 8 characters and a matching confirmation', () => {
    expect(passwordProblem('short', 'short')).toBe('The password must be at least 8 characters.');
    expect(passwordProblem('long-enough', 'long-enougH')).toBe('The password and its confirmation do not match.');
    expect(passwordProblem('long-enough', 'long-enough')).toBeNull();
  });
  it('takes credit in dollars with 2 decimals', () => {
    expect(creditValue('25')).toEqual({ value: 25 });
    expect(creditValue('$12.5')).toEqual({ value: 12.5 });
    expect(creditValue('12.345')).toHaveProperty('problem');
    expect(creditValue('-3')).toHaveProperty('problem');
  });
});
