/** Field rules of the specs' forms (accounts.md §5), shared by screens and tests. */

/** 'Email must look like {email}': something@something.something, no spaces. */
export const looksLikeEmail = (email: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());

/** Sign-up and email change ask for 8 characters; the server enforces 8 everywhere. */
export const MIN_PASSWORD = 8;

export const passwordsOk = (password: string, confirmation: string): boolean => password.length >= MIN_PASSWORD && password === confirmation;

/** Referral codes are checked with the server from 3 characters on. */
export const REFERRAL_CHECK_FROM = 3;

/** A first check on the device; the server checks the content itself. */
export const isPdfFile = (file: { name: string; type: string }): boolean => file.type === 'application/pdf' || /\.pdf$/i.test(file.name);

export const CERTIFICATE_NOT_PDF = 'The blanket certificate of resale must be a PDF file.';

/** The fields of BASIC INFORMATION on the account page (accounts.md §2, §5), as the wire names them. */
export const BASIC_INFO_FIELDS = ['first_name', 'last_name', 'business_name', 'phone'] as const;
export type BasicInfoField = (typeof BASIC_INFO_FIELDS)[number];
export const BASIC_INFO_NAMES: Record<BasicInfoField, string> = { first_name: 'first name', last_name: 'last name', business_name: 'business name', phone: 'phone' };
/** The server's longest names (PATCH /users/{guid}, server/routes/account-routes.ts). */
const BASIC_INFO_MAX: Record<Exclude<BasicInfoField, 'phone'>, number> = { first_name: 100, last_name: 100, business_name: 200 };
/** The server takes 7 to 15 digits (server/services/account-service.ts). */
export const PHONE_DIGITS = { min: 7, max: 15 } as const;
/** What people type between a phone's digits; they are not sent. */
const PHONE_SEPARATORS = /[\s().+-]/g;

/** The phone as the server takes it: its digits only. */
export const phoneDigits = (typed: string): string => typed.replace(PHONE_SEPARATORS, '');

/**
 * What is wrong with a BASIC INFORMATION field, or null. A character that does not belong is said
 * at once; a phone too short only once the person has finished with it (`finished`: the field was
 * left or UPDATE pressed), so the first digits typed do not read as a mistake.
 */
export function basicInfoProblem(field: BasicInfoField, typed: string, finished: boolean): string | null {
  const text = typed.trim();
  if (text === '') return null;
  if (field !== 'phone') {
    const max = BASIC_INFO_MAX[field];
    return text.length > max ? `A ${BASIC_INFO_NAMES[field]} is at most ${max} characters (this one has ${text.length}).` : null;
  }
  const strays = [...new Set(phoneDigits(text).replace(/\d/g, ''))].map((c) => `"${c}"`);
  if (strays.length) return `A phone number has digits only: ${strays.join(', ')} ${strays.length === 1 ? 'is not one' : 'are not'}.`;
  const digits = phoneDigits(text).length;
  if (!finished || (digits >= PHONE_DIGITS.min && digits <= PHONE_DIGITS.max)) return null;
  return `A phone number is ${PHONE_DIGITS.min} to ${PHONE_DIGITS.max} digits (this one has ${digits}).`;
}

/** The lab ships within the US: a zip code is 5 digits (the lab's own words for it). */
export const ZIP_RULE = 'The zip code is 5 digits.';
export const isZip = (typed: string): boolean => /^\d{5}$/.test(typed.trim());
/**
 * What is wrong with a zip as typed, said next to it; the text stays as typed. A letter or a sixth
 * character is said at once; a short zip once the field is left (`finished`).
 */
export function zipProblem(typed: string, finished: boolean): string | null {
  const text = typed.trim();
  if (!text || isZip(text)) return null;
  return /\D/.test(text) || text.length > 5 || finished ? ZIP_RULE : null;
}
