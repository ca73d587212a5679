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

/** Trimmed, case-insensitive literal match on the fields orders.md §5 names. */
export function matchesOrderSearch(order: OrderSummary, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [
    order.order_name,
    order.status,
    order.api_vendor,
    order.external_order_id,
    order.guid,
    order.photographer_name,
    order.photographer_business,
  ].some((field) => typeof field === 'string' && field.toLowerCase().includes(q));
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

/** Groups orders under one heading per distinct date, newest first, keeping order within a day. */
export function groupOrdersByDate<T extends OrderSummary>(orders: T[], timeZone?: string): { heading: string; orders: T[] }[] {
  const sorted = [...orders].sort((a, b) => Date.parse(orderShownDate(b)) - Date.parse(orderShownDate(a)));
  const groups: { heading: string; orders: T[] }[] = [];
  for (const order of sorted) {
    const heading = orderDateHeading(orderShownDate(order), timeZone);
    const last = groups.at(-1);
    if (last?.heading === heading) last.orders.push(order);
    else groups.push({ heading, orders: [order] });
  }
  return groups;
}
