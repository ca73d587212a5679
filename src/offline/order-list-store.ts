/**
 * The orders list's side of the orders table (local-first, docs/architecture.md §6): the list screen reads
 * listed rows with useLiveQuery; the lab's pages only fill and reconcile them here.
 *
 * A page of GET /lab_orders covers a range of the sort (newest first by paid date, else updated
 * date, then the lab's order number): from where the page before ended down to its own last row,
 * or to the end when it is the last page. Every order of the view inside that range is in the
 * page, so a row of the device inside it and not in the page is no longer there (deleted, or no
 * longer matching the view): it leaves the list.
 */
import type { LabOrderList, LabOrderListAttributes } from '../api/lab-orders.ts';
import { sameValue } from '../domain/collections.ts';
import type { LabDatabase, OrderRow } from './db.ts';

// Rows written (and compared) per step of one transaction: each step's copy into IndexedDB is a
// few milliseconds, and keys and frames run between steps, so 10,000 orders never make a long task.
const SLICE = 500;
// Rows read per step when the list reads the table, for the same reason (each read result is
// turned back into objects on the main thread).
const READ_CHUNK = 1000;

/** The date an order is listed under, in ms (paid, else updated); NaN for an unreadable date. */
export const listAtOf = (a: Pick<LabOrderListAttributes, 'paid_at' | 'updated_at'>): number => Date.parse(a.paid_at ?? a.updated_at);

/**
 * The range of the sort a page covers, in ms of the listed date: below `upper` (null: the top)
 * and above `lower` (null: the end). Both bounds are exclusive: the lab sorts by microseconds, so
 * an order in the same millisecond as a page's end may belong to either page.
 */
export interface PageRange {
  upper: number | null;
  lower: number | null;
}

/** The range of a page that follows a page ending at `after` (null: the first page). */
export function pageRange(page: LabOrderList, after: number | null): PageRange {
  const last = page.data.at(-1)?.attributes;
  const lower = page.meta.next_cursor && last ? listAtOf(last) : null;
  return { upper: after, lower: lower !== null && Number.isNaN(lower) ? after : lower };
}

/** Whether the page's range surely holds an order listed at `at`. */
export const inRange = (r: PageRange, at: number): boolean => (r.upper === null || at < r.upper) && (r.lower === null || at > r.lower);

/** The lab's fields are plain values: the same order again changes nothing on the device. */
export function sameListed(a: LabOrderListAttributes | undefined, b: LabOrderListAttributes): boolean {
  if (!a) return false;
  const keys = Object.keys(b) as (keyof LabOrderListAttributes)[];
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

/**
 * Which listed rows a page says are gone: inside its range, in the view (`inView`; null when the
 * view is every order the user may see), and not in the page.
 */
export function goneFromPage(
  local: readonly Pick<OrderRow, 'guid' | 'listAt' | 'listed'>[],
  page: readonly Pick<LabOrderListAttributes, 'guid'>[],
  range: PageRange,
  inView: ((a: LabOrderListAttributes) => boolean) | null,
): string[] {
  const answered = new Set(page.map((a) => a.guid));
  return local
    .filter((r) => r.listed && r.listAt !== undefined && inRange(range, r.listAt) && !answered.has(r.guid) && (!inView || inView(r.listed)))
    .map((r) => r.guid);
}

/** How the lab's page is applied: reconciled over its range in a view, or only written (a search). */
export interface FillOptions {
  range: PageRange | null;
  /** The view's rule as the device can check it; null: every order. Ignored without a range. */
  inView: ((a: LabOrderListAttributes) => boolean) | null;
}

/** The row with the lab's list answer; the builder's part of the same owner's row stays. */
function listedRow(owner: string, a: LabOrderListAttributes, existing: OrderRow | undefined): OrderRow {
  const base = existing && existing.owner === owner ? existing : { guid: a.guid, owner };
  return { ...base, listed: a, listAt: listAtOf(a), listId: a.id };
}

/**
 * Takes rows out of the list: a row that holds more than the list's part (the builder's figures)
 * keeps that; a row the list alone filled goes.
 */
async function unlist(db: LabDatabase, guids: readonly string[]): Promise<void> {
  for (let i = 0; i < guids.length; i += SLICE) {
    const rows = await db.orders.bulkGet(guids.slice(i, i + SLICE));
    const keep: OrderRow[] = [];
    const drop: string[] = [];
    for (const row of rows) {
      if (!row) continue;
      const { listed: _listed, listAt: _listAt, listId: _listId, ...rest } = row;
      // guid and owner are every row's; anything more is another part's.
      if (Object.keys(rest).length > 2) keep.push(rest);
      else drop.push(row.guid);
    }
    await db.orders.bulkPut(keep);
    await db.orders.bulkDelete(drop);
  }
}

/** The orders of a page the table can list (a guid and a readable date), in the lab's order. */
export const listablePage = (page: LabOrderList): LabOrderListAttributes[] =>
  page.data.map((d) => d.attributes).filter((a) => typeof a?.guid === 'string' && !Number.isNaN(listAtOf(a)));

/**
 * Writes a page of the lab's list into the orders table: new and changed orders are put (an
 * unchanged one is not written, so a list that did not change wakes no live query), and with a
 * range, the view's rows the page says are gone leave the list. One transaction, in steps.
 */
export async function fillListPage(db: LabDatabase, owner: string, page: LabOrderList, opts: FillOptions): Promise<void> {
  const answered = listablePage(page);
  await db.transaction('rw', db.orders, async () => {
    for (let i = 0; i < answered.length; i += SLICE) {
      const slice = answered.slice(i, i + SLICE);
      const existing = await db.orders.bulkGet(slice.map((a) => a.guid));
      const changed = slice.flatMap((a, j) => {
        const row = existing[j];
        return row && row.owner === owner && sameListed(row.listed, a) ? [] : [listedRow(owner, a, row)];
      });
      if (changed.length > 0) await db.orders.bulkPut(changed);
    }
    const range = opts.range;
    if (!range || (range.upper !== null && range.lower !== null && range.lower >= range.upper)) return;
    // Exclusive at both ends (see PageRange): the ids are the widest, so a millisecond at a bound
    // is left out whatever its order number.
    const inside = db.orders
      .where('[owner+listAt+listId]')
      .between([owner, range.lower ?? -Infinity, Infinity], [owner, range.upper ?? Infinity, -Infinity], false, false);
    const pageGuids = new Set(answered.map((a) => a.guid));
    const candidates = (await inside.primaryKeys()).filter((g) => !pageGuids.has(g));
    let gone = candidates;
    if (opts.inView) {
      gone = [];
      for (let i = 0; i < candidates.length; i += SLICE) {
        const rows = (await db.orders.bulkGet(candidates.slice(i, i + SLICE))).filter((r): r is OrderRow => r !== undefined);
        gone.push(...goneFromPage(rows, answered, range, opts.inView));
      }
    }
    await unlist(db, gone);
  });
}

/**
 * The owner's listed orders, newest first, from `floor` (ms, inclusive; null: all the device has)
 * up. Read in chunks, so 10,000 rows never come back in one long task.
 */
export async function readListed(db: LabDatabase, owner: string, floor: number | null): Promise<LabOrderListAttributes[]> {
  const out: LabOrderListAttributes[] = [];
  let upper: [string, number, number] = [owner, Infinity, Infinity];
  for (;;) {
    const rows = await db.orders
      .where('[owner+listAt+listId]')
      .between([owner, floor ?? -Infinity, -Infinity], upper, true, false)
      // Dexie's reverse() walks the index from its end (newest first); it is not Array#reverse.
      // oxlint-disable-next-line unicorn/no-array-reverse
      .reverse()
      .limit(READ_CHUNK)
      .toArray();
    for (const r of rows) if (r.listed) out.push(r.listed);
    const last = rows.at(-1);
    if (rows.length < READ_CHUNK || !last || last.listAt === undefined || last.listId === undefined) return out;
    upper = [owner, last.listAt, last.listId];
  }
}

/**
 * A change the lab confirmed to one order (an admin's status on a card, a cancellation, the
 * status an order's detail just read), written into its row at once: the card shows it wherever
 * it sits in the list, not only once its page is read again, and offline the list keeps the
 * order's last-known status. The builder's part of the row, if any, follows too.
 */
export async function patchListed(db: LabDatabase, guid: string, change: Partial<Pick<LabOrderListAttributes, 'status' | 'order_name'>>): Promise<void> {
  await db.transaction('rw', db.orders, async () => {
    const row = await db.orders.get(guid);
    if (!row) return;
    const builder = {
      ...(change.status !== undefined && row.status !== undefined ? { status: change.status } : {}),
      ...(change.order_name !== undefined && row.name !== undefined ? { name: change.order_name } : {}),
    };
    const next = { ...row, ...builder, ...(row.listed ? { listed: { ...row.listed, ...change } } : {}) };
    // The same again writes nothing: no live query of the orders wakes for it.
    if (!sameValue(row, next)) await db.orders.put(next);
  });
}

/** The listed orders of these guids (the lab's answer to a filter or a search), newest first. */
export async function readListedByIds(db: LabDatabase, owner: string, guids: readonly string[]): Promise<LabOrderListAttributes[]> {
  const rows: OrderRow[] = [];
  for (let i = 0; i < guids.length; i += READ_CHUNK) {
    for (const r of await db.orders.bulkGet(guids.slice(i, i + READ_CHUNK))) if (r && r.owner === owner && r.listed) rows.push(r);
  }
  rows.sort((a, b) => (b.listAt ?? 0) - (a.listAt ?? 0) || (b.listId ?? 0) - (a.listId ?? 0));
  return rows.map((r) => r.listed as LabOrderListAttributes);
}

/**
 * When the list last had the lab's answer (the offline notice's time), kept with the user's other
 * kept reads under the name the list's copy had (cleared at sign-out).
 */
const syncKey = (owner: string) => `${owner}|lab_orders`;

/** When the lab last answered this user's list on this device; null: never (nothing to show offline). */
export async function listSyncedAt(db: LabDatabase, owner: string): Promise<number | null> {
  return (await db.cachedReads.get(syncKey(owner)))?.savedAt ?? null;
}

export async function noteListAnswer(db: LabDatabase, owner: string, now = Date.now()): Promise<void> {
  await db.cachedReads.put({ key: syncKey(owner), owner, savedAt: now, payload: null });
}
