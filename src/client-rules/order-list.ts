/** Rules of the orders list (docs/orders.md §2, §5): search, date headings, card dates. */

export interface OrderSummary {
  guid: string;
  order_name: string;
  status: string;
  paid_at: string | null;
  updated_at: string;
  photographer_name?: string | null;
  photographer_business?: string | null;
  api_vendor?: string | null;
  external_order_id?: string | null;
}

// Each order's searched fields (docs/orders.md §5), lower-cased once per order object and joined by a
// character no search box can hold: a key filters 10,000 orders with one `includes` each instead of
// seven lower-casings. Order objects are never changed in place (a change is a new object).
const searchTexts = new WeakMap<OrderSummary, string>();

function searchText(order: OrderSummary): string {
  let text = searchTexts.get(order);
  if (text === undefined) {
    text = [order.order_name, order.status, order.api_vendor, order.external_order_id, order.guid, order.photographer_name, order.photographer_business]
      .filter((field): field is string => typeof field === 'string')
      .join('\u0000')
      .toLowerCase();
    searchTexts.set(order, text);
  }
  return text;
}

/**
 * Works out an order's search text ahead of the first key (the list does it while the browser is
 * idle), so that key filters with `includes` only instead of lower-casing every order first.
 */
export function prepareOrderSearch(order: OrderSummary): void {
  searchText(order);
}

/** Trimmed, case-insensitive literal match on the fields docs/orders.md §5 names. */
export function matchesOrderSearch(order: OrderSummary, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || searchText(order).includes(q);
}

/** The date an order is shown under: paid date when present, else updated date. */
export const orderShownDate = (order: OrderSummary): string => order.paid_at ?? order.updated_at;

/** The zone dates are shown in: the device's own, or UTC (the tests' fixed zone). */
export type ShownZone = 'UTC' | undefined;

// The months as en-US writes them, in capitals: every date the list shows is upper-case.
const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];

/**
 * en-US's long date ('March 4, 2026'), with its time ('March 4, 2026 at 3:05 PM'), in capitals,
 * written out rather than through Intl.DateTimeFormat: the page's first DateTimeFormat loads the
 * locale's data, a long task on a phone, inside the orders list's first render
 * (docs/performance-notes.md §3). tests/unit/order-list.test.ts holds the text equal to
 * Intl's en-US in several time zones.
 */
function longDate(iso: string, zone: ShownZone, withTime: boolean): string {
  const date = new Date(iso);
  // Where toLocaleString said so: a bad date must not end the list.
  if (Number.isNaN(date.getTime())) return 'INVALID DATE';
  const utc = zone === 'UTC';
  const day = `${MONTHS[utc ? date.getUTCMonth() : date.getMonth()]} ${utc ? date.getUTCDate() : date.getDate()}, ${utc ? date.getUTCFullYear() : date.getFullYear()}`;
  if (!withTime) return day;
  const hour = utc ? date.getUTCHours() : date.getHours();
  const minute = utc ? date.getUTCMinutes() : date.getMinutes();
  return `${day} AT ${hour % 12 || 12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** '{Month day, year} ORDERS', upper-case. */
export function orderDateHeading(iso: string, zone?: ShownZone): string {
  return `${longDate(iso, zone, false)} ORDERS`;
}

/** Long US date with time, in capitals, for order cards. */
export function orderCardDate(iso: string, zone?: ShownZone): string {
  return longDate(iso, zone, true);
}

// Each order's time and heading, worked out once per order object: a search re-groups the same
// objects on every key, and 10,000 Date.parse calls in a sort's comparator plus 10,000 date
// formats took long enough to be felt while typing (docs/performance-notes.md §5).
const shownAt = new WeakMap<object, { at: number; heading: Map<string, string> }>();
function facts(order: OrderSummary, timeZone: ShownZone): { at: number; heading: string } {
  let f = shownAt.get(order);
  if (!f) {
    f = { at: Date.parse(orderShownDate(order)), heading: new Map() };
    shownAt.set(order, f);
  }
  const zone = timeZone ?? '';
  let heading = f.heading.get(zone);
  if (heading === undefined) {
    heading = orderDateHeading(orderShownDate(order), timeZone);
    f.heading.set(zone, heading);
  }
  return { at: f.at, heading };
}

/** Groups orders under one heading per distinct date, newest first, keeping order within a day. */
export function groupOrdersByDate<T extends OrderSummary>(orders: T[], timeZone?: ShownZone): { heading: string; orders: T[] }[] {
  const sorted = orders.map((order, i) => ({ order, i, ...facts(order, timeZone) }));
  // Stable: equal times keep their order (NaN, an unreadable date, sorts as equal).
  sorted.sort((a, b) => b.at - a.at || a.i - b.i);
  const groups: { heading: string; orders: T[] }[] = [];
  for (const { order, heading } of sorted) {
    const last = groups.at(-1);
    if (last?.heading === heading) last.orders.push(order);
    else groups.push({ heading, orders: [order] });
  }
  return groups;
}
