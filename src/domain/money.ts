/**
 * Money: integer cents inside, dollars with 2 decimals on the wire (docs/api.md §1), '$' and 2
 * decimals on screen. No float arithmetic on money anywhere else.
 */
export type Cents = number;

/** Dollars (number or string, as a form or the wire gives them) to whole cents, rounded half up. */
export function toCents(dollars: number | string): Cents {
  const text = typeof dollars === 'number' ? dollars.toFixed(6) : dollars.trim();
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new RangeError(`not an amount of money: ${String(dollars)}`);
  const [, sign, whole = '', fraction = ''] = match;
  const padded = `${fraction}000`;
  let cents = Number(whole || '0') * 100 + Number(padded.slice(0, 2));
  if (Number(padded[2]) >= 5) cents += 1;
  return sign === '-' ? -cents : cents;
}

/** Cents to dollars for the wire: a number with at most 2 decimals. */
export const toDollars = (cents: Cents): number => Math.round(cents) / 100;

/**
 * A whole number with US thousands separators: 1234567 → '1,234,567'. Written out, not Intl: the
 * first Intl.NumberFormat of a page loads the locale's data inside the task that evaluated this
 * module (the builder's first render), and Number#toLocaleString builds a new formatter per call,
 * which a 1,000-line cart's first render paid for each line (docs/performance-notes.md §3).
 */
export function groupThousands(whole: number): string {
  const digits = String(Math.trunc(Math.abs(whole)));
  let out = whole < 0 && digits !== '0' ? '-' : '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/** '$1,234.50' */
export function formatMoney(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const whole = groupThousands(Math.floor(abs / 100));
  return `${sign}$${whole}.${String(abs % 100).padStart(2, '0')}`;
}
