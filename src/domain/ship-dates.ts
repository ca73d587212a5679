import { TRANSIT_BUSINESS_DAYS, type ShippingSpeed } from './shipping-speeds.ts';

/**
 * Ship dates (issue 34): the day the lab promises to ship an order and the days it may arrive,
 * counted in business days. The lab works Monday to Friday except its holidays (the catalogue
 * file's `holidays`); its dates are calendar days in UTC (`YYYY-MM-DD`), the same on the server
 * that promises them and on every screen that shows them. Arrival counts the carrier's business
 * days, which the lab's own holidays do not change.
 *
 * The day of payment is day 0: an order paid on Tuesday with a 2-day turnaround ships by Thursday,
 * and one paid at the weekend counts from Monday like one paid on Friday.
 */

/** A calendar day of the lab, `YYYY-MM-DD`. */
export type LabDate = string;

const DAY_MS = 24 * 60 * 60 * 1000;
const LAB_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const labDateOf = (at: Date): LabDate => at.toISOString().slice(0, 10);

const toUtc = (date: LabDate): Date => {
  const m = LAB_DATE.exec(date);
  if (!m) throw new RangeError(`"${date}" is not a date (YYYY-MM-DD)`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
};

/** Whether a string is a real calendar day written YYYY-MM-DD (not 2026-02-30). */
export function isLabDate(value: unknown): value is LabDate {
  if (typeof value !== 'string' || !LAB_DATE.test(value)) return false;
  return labDateOf(toUtc(value)) === value;
}

/** The lab's days off besides weekends. */
export type Holidays = readonly LabDate[];

export const isBusinessDay = (date: LabDate, holidays: Holidays = []): boolean => {
  const weekday = toUtc(date).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.includes(date);
};

/** The business day `days` business days after `date` (weekends and holidays skipped; 0 gives `date` itself). */
export function addBusinessDays(date: LabDate, days: number, holidays: Holidays = []): LabDate {
  let at = toUtc(date);
  for (let left = days; left > 0; ) {
    at = new Date(at.getTime() + DAY_MS);
    if (isBusinessDay(labDateOf(at), holidays)) left -= 1;
  }
  return labDateOf(at);
}

export interface ShipDates {
  /** The day the lab promises to hand the order to the carrier (or have it ready for pickup). */
  ship_by: LabDate;
  /** The arrival range the speed's transit days give; null for local pickup. */
  arrives_from: LabDate | null;
  arrives_to: LabDate | null;
}

/** Arrival after the lab ships on `shipBy` with `speed` (null: local pickup, nothing travels). */
export function shipDatesFrom(shipBy: LabDate, speed: ShippingSpeed | null): ShipDates {
  if (!speed) return { ship_by: shipBy, arrives_from: null, arrives_to: null };
  const [fastest, slowest] = TRANSIT_BUSINESS_DAYS[speed];
  return { ship_by: shipBy, arrives_from: addBusinessDays(shipBy, fastest), arrives_to: addBusinessDays(shipBy, slowest) };
}

/** The ship-by day of an order paid on `paidOn` that takes `turnaroundDays` of the lab's business days. */
export const shipByDate = (paidOn: LabDate, turnaroundDays: number, holidays: Holidays = []): LabDate => addBusinessDays(paidOn, turnaroundDays, holidays);

const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;

/** "FRI, DEC 4", as the lab's screens write a day. */
export function formatLabDay(date: LabDate): string {
  const at = toUtc(date);
  return `${WEEKDAYS[at.getUTCDay()]}, ${MONTHS[at.getUTCMonth()]} ${at.getUTCDate()}`;
}

/** "DEC 7–11", or "DEC 30–JAN 5" across a month, or "DEC 7" for a one-day range. */
export function formatArrival(from: LabDate, to: LabDate): string {
  const a = toUtc(from);
  const b = toUtc(to);
  const first = `${MONTHS[a.getUTCMonth()]} ${a.getUTCDate()}`;
  if (from === to) return first;
  return a.getUTCMonth() === b.getUTCMonth() ? `${first}–${b.getUTCDate()}` : `${first}–${MONTHS[b.getUTCMonth()]} ${b.getUTCDate()}`;
}

/** "Ships by FRI, DEC 4 · arrives DEC 7–11"; "Ready for pickup by FRI, DEC 4" without travel. */
export function formatShipDates(dates: ShipDates): string {
  if (!dates.arrives_from || !dates.arrives_to) return `Ready for pickup by ${formatLabDay(dates.ship_by)}`;
  return `Ships by ${formatLabDay(dates.ship_by)} · arrives ${formatArrival(dates.arrives_from, dates.arrives_to)}`;
}
