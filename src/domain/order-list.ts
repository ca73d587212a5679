/** Rules of the orders list (orders.md §2, §5): search, date headings, card dates. */

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

// Each order's searched fields (orders.md §5), lower-cased once per order object and joined by a
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

/** Trimmed, case-insensitive literal match on the fields orders.md §5 names. */
export function matchesOrderSearch(order: OrderSummary, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || searchText(order).includes(q);
}

/** The date an order is shown under: paid date when present, else updated date. */
export const orderShownDate = (order: OrderSummary): string => order.paid_at ?? order.updated_at;

const DAY: Intl.DateTimeFormatOptions = { month: 'long', day: 'numeric', year: 'numeric' };
const DAY_AND_TIME: Intl.DateTimeFormatOptions = { ...DAY, hour: 'numeric', minute: '2-digit' };

// toLocaleString with options builds a new Intl.DateTimeFormat on every call (about 0.35 ms here,
// several times that on a phone: 100 of them cost a list of 50 orders a long task); a format
// built once per kind and time zone formats in microseconds, with the same text.
const formats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(kind: 'day' | 'day-and-time', timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { ...(kind === 'day' ? DAY : DAY_AND_TIME), ...(timeZone ? { timeZone } : {}) });
    formats.set(key, format);
  }
  return format;
}

// Intl throws on an unreadable date where toLocaleString said so: a bad date must not end the list.
const formatted = (format: Intl.DateTimeFormat, iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Invalid Date' : format.format(date);
};

/** '{Month day, year} ORDERS', upper-case. */
export function orderDateHeading(iso: string, timeZone?: string): string {
  return `${formatted(dateFormat('day', timeZone), iso)} ORDERS`.toUpperCase();
}

/** Long US date with time, in capitals, for order cards. */
export function orderCardDate(iso: string, timeZone?: string): string {
  return formatted(dateFormat('day-and-time', timeZone), iso).toUpperCase();
}

// Each order's time and heading, worked out once per order object: a search re-groups the same
// objects on every key, and 10,000 Date.parse calls in a sort's comparator plus 10,000 date
// formats took 100-200 ms, long enough to be felt while typing.
const shownAt = new WeakMap<object, { at: number; heading: Map<string, string> }>();
function facts(order: OrderSummary, timeZone: string | undefined): { at: number; heading: string } {
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
export function groupOrdersByDate<T extends OrderSummary>(orders: T[], timeZone?: string): { heading: string; orders: T[] }[] {
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
