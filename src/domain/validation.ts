/** Field rules of the specs' forms (docs/accounts.md §5), shared by screens and tests. */

/** 'Email must look like {email}': something@something.something, no spaces. */
export const looksLikeEmail = (email: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());

import { MIN_PASSWORD_LENGTH } from './password-rule.ts';

/** Sign-up and email change ask for the server's minimum, which it enforces everywhere. */
export const MIN_PASSWORD = MIN_PASSWORD_LENGTH;

export const passwordsOk = (password: string, confirmation: string): boolean => password.length >= MIN_PASSWORD && password === confirmation;

/** Referral codes are checked with the server from 3 characters on. */
export const REFERRAL_CHECK_FROM = 3;
/** A photographer's own referral code: letters and digits, kept in capitals (the lab's rule and words). */
export const REFERRAL_CODE_RULE = 'A referral code is 3 to 30 letters and digits.';
const OWN_REFERRAL_CODE: CharactersRule = { min: REFERRAL_CHECK_FROM, max: 30, allowed: /^[A-Za-z0-9]$/, says: REFERRAL_CODE_RULE };
export const ownReferralCodeProblem = (typed: string, finished: boolean): string | null => charactersProblem(typed, finished, OWN_REFERRAL_CODE);

/** A first check on the device; the server checks the content itself. */
export const isPdfFile = (file: { name: string; type: string }): boolean => file.type === 'application/pdf' || /\.pdf$/i.test(file.name);

export const CERTIFICATE_NOT_PDF = 'The blanket certificate of resale must be a PDF file.';

/** The fields of BASIC INFORMATION on the account page (docs/accounts.md §2, §5), as the wire names them. */
export const BASIC_INFO_FIELDS = ['first_name', 'last_name', 'business_name', 'phone'] as const;
export type BasicInfoField = (typeof BASIC_INFO_FIELDS)[number];
export const BASIC_INFO_NAMES: Record<BasicInfoField, string> = { first_name: 'first name', last_name: 'last name', business_name: 'business name', phone: 'phone' };
/** The server's longest names (PATCH /users/{guid}, server/routes/account-routes.ts). */
const BASIC_INFO_MAX: Record<Exclude<BasicInfoField, 'phone'>, number> = { first_name: 100, last_name: 100, business_name: 200 };
/** The server takes 7 to 15 digits (server/services/account-service.ts). */
export const PHONE_DIGITS = { min: 7, max: 15 } as const;

/** A number typed with separators between its digits (a phone, a card number): what it is called, its digit counts, what may stand between them. */
export interface SeparatedDigits {
  name: string;
  min: number;
  max: number;
  separators: RegExp;
}
/** What people type between a phone's digits; they are not sent. */
const PHONE: SeparatedDigits = { name: 'phone number', ...PHONE_DIGITS, separators: /[\s().+-]/g };
/** Card numbers run from 13 digits (the shortest test cards) to 19; spaces and dashes are how they are printed (the lab's card check drops them too). */
export const CARD_NUMBER: SeparatedDigits = { name: 'card number', min: 13, max: 19, separators: /[\s-]/g };

/** The phone as the server takes it: its digits only. */
export const phoneDigits = (typed: string): string => typed.replace(PHONE.separators, '');

/**
 * What is wrong with a number typed with separators, or null; the text stays as typed. A character
 * that does not belong is said at once; too few or too many digits only once the person has
 * finished with it (`finished`: the field was left or the form sent), so the first digits typed do
 * not read as a mistake.
 */
export function separatedDigitsProblem(typed: string, finished: boolean, rule: SeparatedDigits): string | null {
  const bare = typed.trim().replace(rule.separators, '');
  if (bare === '') return null;
  const strays = [...new Set(bare.replace(/\d/g, ''))].map((c) => `"${c}"`);
  if (strays.length) return `A ${rule.name} has digits only: ${strays.join(', ')} ${strays.length === 1 ? 'is not one' : 'are not'}.`;
  if (!finished || (bare.length >= rule.min && bare.length <= rule.max)) return null;
  return `A ${rule.name} is ${rule.min} to ${rule.max} digits (this one has ${bare.length}).`;
}

/**
 * What is wrong with a BASIC INFORMATION field, or null: a name too long, or the phone as
 * `separatedDigitsProblem` says it.
 */
export function basicInfoProblem(field: BasicInfoField, typed: string, finished: boolean): string | null {
  const text = typed.trim();
  if (text === '') return null;
  if (field === 'phone') return separatedDigitsProblem(text, finished, PHONE);
  const max = BASIC_INFO_MAX[field];
  return text.length > max ? `A ${BASIC_INFO_NAMES[field]} is at most ${max} characters (this one has ${text.length}).` : null;
}

/** A field of set characters with no separators (a zip, a CVC, a referral code): its lengths, one allowed character, and its rule in our words. */
export interface CharactersRule {
  min: number;
  max: number;
  allowed: RegExp;
  says: string;
}

/**
 * What is wrong with such a field as typed, said next to it; the text stays as typed. A character
 * that is not allowed, or one too many, is said at once; too few once the field is left (`finished`).
 */
export function charactersProblem(typed: string, finished: boolean, rule: CharactersRule): string | null {
  const text = typed.trim();
  if (!text) return null;
  const stray = [...text].some((c) => !rule.allowed.test(c));
  if (!stray && text.length >= rule.min && text.length <= rule.max) return null;
  return stray || text.length > rule.max || finished ? rule.says : null;
}

const DIGIT = /^\d$/;
/** The lab ships within the US: a zip code is 5 digits (the lab's own words for it). */
export const ZIP_RULE = 'The zip code is 5 digits.';
const ZIP: CharactersRule = { min: 5, max: 5, allowed: DIGIT, says: ZIP_RULE };
export const isZip = (typed: string): boolean => /^\d{5}$/.test(typed.trim());
export const zipProblem = (typed: string, finished: boolean): string | null => charactersProblem(typed, finished, ZIP);

/** The card's security code: 3 digits, 4 on American Express (the lab's card check takes 3 or 4). */
export const CVC_RULE = 'The CVC is 3 or 4 digits.';
export const cvcProblem = (typed: string, finished: boolean): string | null => charactersProblem(typed, finished, { min: 3, max: 4, allowed: DIGIT, says: CVC_RULE });

export const EXPIRY_RULE = 'Enter the expiry as MM/YY.';
/** The expiry's month and two-digit year, or null when it is not MM/YY. */
export function expiryParts(typed: string): { month: number; year: number } | null {
  const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(typed.trim());
  return m ? { month: Number(m[1]), year: Number(m[2]) } : null;
}
/** A letter is said at once; any other shape that is not MM/YY once the field is left. */
export function expiryProblem(typed: string, finished: boolean): string | null {
  const text = typed.trim();
  if (!text || expiryParts(text)) return null;
  return /[^\d\s/]/.test(text) || finished ? EXPIRY_RULE : null;
}

/** The quantity of a print: a whole number from 1 to the lab's largest (server/routes/catalogue-routes.ts), in the lab's words. */
export const QUANTITY_MAX = 10_000;
export const QUANTITY_WHOLE = 'Quantity must be a whole number.';
export const QUANTITY_AT_LEAST_ONE = 'Quantity must be at least 1.';
export const QUANTITY_AT_MOST = `Quantity must be at most ${QUANTITY_MAX.toLocaleString('en-US')}.`;
/** What is wrong with a typed quantity: a character that is not a digit or a 0 at once, an empty box once it is left. */
export function quantityProblem(typed: string, finished: boolean): string | null {
  const text = typed.trim();
  if (text === '') return finished ? QUANTITY_AT_LEAST_ONE : null;
  if (!/^\d+$/.test(text)) return QUANTITY_WHOLE;
  const n = Number(text);
  return n < 1 ? QUANTITY_AT_LEAST_ONE : n > QUANTITY_MAX ? QUANTITY_AT_MOST : null;
}
