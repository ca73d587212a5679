/** The admin's edits of a photographer (docs/orders.md §2 Photographers list, §5). */
import { looksLikeEmail, MIN_PASSWORD } from '../../domain/validation.ts';

/** The list is searched from this many characters (docs/orders.md §5). */
export const PHOTOGRAPHER_SEARCH_FROM = 3;

/** What the lab searches for: the trimmed words from 3 characters, else nothing (the whole list). */
export const photographerSearch = (text: string): string => (text.trim().length >= PHOTOGRAPHER_SEARCH_FROM ? text.trim() : '');

export function emailProblem(email: string): string | null {
  return email.trim().length >= 3 && looksLikeEmail(email) ? null : 'Enter an email address like name@studio.com.';
}

/** The spec's form asks 6 characters; the lab keeps its own minimum of 8 here too, and says so. */
export function passwordProblem(password: string, confirmation: string): string | null {
  if (password.length < MIN_PASSWORD) return `The password must be at least ${MIN_PASSWORD} characters.`;
  return password === confirmation ? null : 'The password and its confirmation do not match.';
}

/** Available credit as typed: dollars, at most 2 decimals, not negative; sent with 2 decimals. */
export function creditValue(text: string): { value: number } | { problem: string } {
  const t = text.trim().replace(/^\$/, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return { problem: 'Enter the credit in dollars, like 25.00.' };
  return { value: Number(Number(t).toFixed(2)) };
}
