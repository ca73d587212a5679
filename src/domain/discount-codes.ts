import { toCents, type Cents } from './money.ts';

/**
 * The rules of a new discount code, field by field, shared by the admin screen (checked where each
 * field is typed), the lab's API and the command line (npm run discount:create), so all three say
 * the same thing about the same value.
 */

export const DISCOUNT_CODE_RULE = 'A discount code is 4 to 40 letters, digits or dashes.';
export const DISCOUNT_WORTH_RULE = 'Give either a percent or an amount in dollars, not both.';
export const DISCOUNT_PERCENT_RULE = 'The percent is a whole number from 1 to 100.';
export const DISCOUNT_AMOUNT_RULE = 'The amount is in dollars with at most 2 decimals, such as 5.00.';
export const DISCOUNT_AMOUNT_MIN = 'The amount is at least 0.01 dollars.';
export const DISCOUNT_LAST_DAY_RULE = 'The last day is a date such as 2027-01-31.';
export const DISCOUNT_LIMIT_RULE = 'The usage limit is a whole number of 1 or more.';

const CODE_SHAPE = /^[A-Z0-9-]{4,40}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** As typed: trimmed and upper-cased (codes are stored upper-case). */
export const normaliseCode = (typed: string): string => typed.trim().toUpperCase();

export type Parsed<T> = { value: T } | { problem: string };

export const parseCode = (typed: string): Parsed<string> => {
  const code = normaliseCode(typed);
  return CODE_SHAPE.test(code) ? { value: code } : { problem: DISCOUNT_CODE_RULE };
};

export const parsePercent = (typed: string): Parsed<number> => {
  const text = typed.trim();
  const percent = Number(text);
  return /^\d{1,3}$/.test(text) && percent >= 1 && percent <= 100 ? { value: percent } : { problem: DISCOUNT_PERCENT_RULE };
};

export const parseAmount = (typed: string): Parsed<Cents> => {
  const text = typed.trim().replace(/^\$/, '');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) return { problem: DISCOUNT_AMOUNT_RULE };
  const cents = toCents(text);
  return cents >= 1 ? { value: cents } : { problem: DISCOUNT_AMOUNT_MIN };
};

/** The last day a code works, YYYY-MM-DD: it works through that whole day (UTC) and expires when the next one starts. */
export const parseLastDay = (typed: string): Parsed<Date> => {
  const text = typed.trim();
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const start = day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : null;
  if (!start || Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== text) return { problem: DISCOUNT_LAST_DAY_RULE };
  return { value: new Date(start.getTime() + DAY_MS) };
};

/** The last day a code works, from when it expires (the inverse of parseLastDay). */
export const lastDayOf = (expiresAt: Date): string => new Date(expiresAt.getTime() - 1).toISOString().slice(0, 10);

export const parseUsageLimit = (typed: string): Parsed<number> => {
  const text = typed.trim();
  return /^\d{1,9}$/.test(text) && Number(text) >= 1 ? { value: Number(text) } : { problem: DISCOUNT_LIMIT_RULE };
};
