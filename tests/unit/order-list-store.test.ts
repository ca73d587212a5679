import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { LabOrderList, LabOrderListAttributes } from '../../src/api/lab-orders.ts';
import { ADMIN_OPENING_FILTERS } from '../../src/domain/order-filters.ts';
import { reconcileRule, viewRule } from '../../src/features/orders/view-rule.ts';
import { LabDatabase } from '../../src/offline/db.ts';
import { forgetOrder } from '../../src/offline/forget-order.ts';
import { fillListPage, goneFromPage, patchListed, inRange, listSyncedAt, noteListAnswer, pageRange, readListed, readListedByIds } from '../../src/offline/order-list-store.ts';

const ANN = 'ann@example.com';
const MINUTE = 60_000;
const BASE = Date.UTC(2026, 10, 20, 12);

let n = 0;
const dbs: LabDatabase[] = [];
const freshDb = () => {
  const db = new LabDatabase(`order-list-${++n}`);
  dbs.push(db);
  return db;
};
afterEach(async () => {
  await Promise.all(dbs.splice(0).map((db) => db.delete()));
});

/** Order i, i minutes before BASE (so a higher i is older, further down the list). */
function order(i: number, o: Partial<LabOrderListAttributes> = {}): LabOrderListAttributes {
  const at = new Date(BASE - i * MINUTE).toISOString();
  return {
    id: 1000 - i,
    guid: `g${i}`,
    order_name: `Order ${i}`,
    status: 'paid',
    created_at: at,
    updated_at: at,
    paid_at: at,
    photographer_id: 'p1',
    photographer_name: 'Ann Lee',
    photographer_business: 'Lee Studio',
    photographer_email: ANN,
    has_frame: false,
    ...o,
  };
}

/** The lab's answer: these orders, and a next page or not. */
const page = (orders: LabOrderListAttributes[], next: string | null = null): LabOrderList => ({
  // The store keeps what it is given; these orders leave out most of a list card's fields.
  data: orders.map((a) => ({ id: String(a.id), type: 'lab_order', attributes: a as LabOrderList['data'][number]['attributes'] })),
  meta: { current_user_is_admin: false, current_user_is_api_vendor: false, view_as_photographer_id: null, view_as_photographer: null, total: orders.length, per_page: 50, next_cursor: next, urgent_count: 0 },
});

const listed = async (db: LabDatabase) => (await readListed(db, ANN, null)).map((a) => a.guid);
const ALL = { inView: null };

describe('the range a page of the list covers', () => {
  it('runs from the page before (or the top) down to its last order, or to the end on the last page', () => {
    const first = page([order(0), order(1), order(2)], 'cursor');
    expect(pageRange(first, null)).toEqual({ upper: null, lower: BASE - 2 * MINUTE });
    expect(pageRange(page([order(0)]), null)).toEqual({ upper: null, lower: null });
    expect(pageRange(page([order(3), order(4)]), BASE - 2 * MINUTE)).toEqual({ upper: BASE - 2 * MINUTE, lower: null });
    // An empty answer: nothing is left in the view.
    expect(pageRange(page([]), null)).toEqual({ upper: null, lower: null });
  });

  it('leaves out the milliseconds at its ends: the lab sorts by microseconds, so those orders may be on either page', () => {
    const r = { upper: 100, lower: 10 };
    expect([9, 10, 11, 99, 100, 101].map((at) => inRange(r, at))).toEqual([false, false, true, true, false, false]);
    expect(inRange({ upper: null, lower: null }, -5)).toBe(true);
  });

  it('says gone the rows inside the range, in the view, and not in the page', () => {
    const row = (i: number, o: Partial<LabOrderListAttributes> = {}) => ({ guid: `g${i}`, listAt: BASE - i * MINUTE, listed: order(i, o) });
    const range = { upper: null, lower: BASE - 5 * MINUTE };
    const local = [row(0), row(1), row(2, { has_frame: true }), row(5), row(7)];
    expect(goneFromPage(local, [order(0)], range, null)).toEqual(['g1', 'g2']);
    expect(goneFromPage(local, [order(0)], range, (a) => a.has_frame === true)).toEqual(['g2']);
  });
});

describe('filling the orders table from the lab', () => {
  it('adds new orders, updates changed ones, and takes out the ones the lab no longer has (deleted elsewhere)', async () => {
    const db = freshDb();
    await fillListPage(db, ANN, page([order(1), order(2), order(3)]), { range: pageRange(page([order(1)]), null), ...ALL });
    expect(await listed(db)).toEqual(['g1', 'g2', 'g3']);

    // Another tab made order 0, order 2 was deleted, order 3 changed status.
    const again = page([order(0), order(1), order(3, { status: 'shipped' })]);
    await fillListPage(db, ANN, again, { range: pageRange(again, null), ...ALL });
    expect(await listed(db)).toEqual(['g0', 'g1', 'g3']);
    expect((await db.orders.get('g3'))?.listed?.status).toBe('shipped');
    expect(await db.orders.get('g2')).toBeUndefined();
  });

  it("writes an admin's confirmed status change into its row, keeping the rest of the card", async () => {
    const db = freshDb();
    await fillListPage(db, ANN, page([order(1), order(2, { has_frame: true })]), { range: null, ...ALL });
    await patchListed(db, 'g2', { status: 'printing' });
    expect((await db.orders.get('g2'))?.listed).toEqual({ ...order(2, { has_frame: true }), status: 'printing' });
    expect((await db.orders.get('g1'))?.listed).toEqual(order(1));
    // An order the device does not list is not made up.
    await patchListed(db, 'g9', { status: 'printing' });
    expect(await db.orders.get('g9')).toBeUndefined();
  });

  it('reconciles only inside the range a page covers: older orders, and those in the millisecond of its end, stay', async () => {
    const db = freshDb();
    const twin = order(4, { guid: 'twin', id: 1 });
    await fillListPage(db, ANN, page([0, 1, 2, 3, 4, 5, 6].map((i) => order(i)).concat(twin)), { range: null, ...ALL });
    // The first page now ends at order 4; order 2 is gone. The twin of order 4's millisecond may be
    // on the next page; 5 and 6 are below the page.
    const first = page([order(0), order(1), order(3), order(4)], 'next');
    await fillListPage(db, ANN, first, { range: pageRange(first, null), ...ALL });
    expect(await listed(db)).toEqual(['g0', 'g1', 'g3', 'g4', 'twin', 'g5', 'g6']);
    // The next page starts below order 4 and is the last: order 5 is gone.
    const second = page([twin, order(6)]);
    const range = pageRange(second, pageRange(first, null).lower);
    await fillListPage(db, ANN, second, { range, ...ALL });
    expect(await listed(db)).toEqual(['g0', 'g1', 'g3', 'g4', 'twin', 'g6']);
  });

  it("a filtered page takes out only the rows of its view it no longer lists; a search's page only adds", async () => {
    const db = freshDb();
    await fillListPage(db, ANN, page([order(0, { has_frame: true }), order(1), order(2, { has_frame: true }), order(3, { has_frame: true })]), { range: null, ...ALL });
    const framed = page([order(0, { has_frame: true }), order(3, { has_frame: true })]);
    const rule = reconcileRule({ filters: 'frame', photographerId: null }, null);
    await fillListPage(db, ANN, framed, { range: pageRange(framed, null), inView: rule?.inView ?? null });
    // Order 2 was framed on the device and the lab no longer lists it as framed; order 1 is not framed: it stays.
    expect(await listed(db)).toEqual(['g0', 'g1', 'g3']);

    const found = page([order(9)], 'more');
    await fillListPage(db, ANN, found, { range: null, inView: null });
    expect(await listed(db)).toEqual(['g0', 'g1', 'g3', 'g9']);
  });

  it("keeps the builder's part of a row the list no longer shows, and the builder's figures when the list writes", async () => {
    const db = freshDb();
    const builder = { guid: 'g1', owner: ANN, name: 'Order 1', status: 'open', subtotalCents: 500, discountCents: 0, creditCents: 0, boutiqueCents: 0, shippingCents: 0, totalCents: 500, notes: null };
    await db.orders.put(builder);
    await fillListPage(db, ANN, page([order(1), order(2)]), { range: null, ...ALL });
    expect(await db.orders.get('g1')).toMatchObject({ ...builder, listed: order(1), listId: 999 });
    const empty = page([]);
    await fillListPage(db, ANN, empty, { range: pageRange(empty, null), ...ALL });
    expect(await listed(db)).toEqual([]);
    expect(await db.orders.get('g1')).toEqual(builder);
    expect(await db.orders.get('g2')).toBeUndefined();
  });

  it('writes nothing for orders that did not change (no live query wakes for an unchanged list)', async () => {
    const db = freshDb();
    await fillListPage(db, ANN, page([order(0), order(1)]), { range: null, ...ALL });
    let writes = 0;
    db.orders.hook('creating', () => {
      writes += 1;
    });
    db.orders.hook('updating', () => {
      writes += 1;
    });
    await fillListPage(db, ANN, page([order(0), order(1)]), { range: null, ...ALL });
    expect(writes).toBe(0);
    await fillListPage(db, ANN, page([order(0, { status: 'printing' }), order(1)]), { range: null, ...ALL });
    expect(writes).toBe(1);
  });

  it("keeps owners apart: another user's rows are neither listed nor reconciled", async () => {
    const db = freshDb();
    await fillListPage(db, 'bob@example.com', page([order(5, { guid: 'bobs' })]), { range: null, ...ALL });
    const empty = page([]);
    await fillListPage(db, ANN, empty, { range: pageRange(empty, null), ...ALL });
    expect(await listed(db)).toEqual([]);
    expect((await readListed(db, 'bob@example.com', null)).map((a) => a.guid)).toEqual(['bobs']);
  });

  it('reads newest first (paid date, else updated date, then the lab number) from a floor, in chunks, and by ids', async () => {
    const db = freshDb();
    const many = Array.from({ length: 2100 }, (_, i) => order(i));
    // Unpaid: listed under its updated date.
    many.push(order(2200, { guid: 'late', paid_at: null, updated_at: new Date(BASE + MINUTE).toISOString() }));
    await fillListPage(db, ANN, page(many), { range: null, ...ALL });
    const all = await readListed(db, ANN, null);
    expect(all).toHaveLength(2101);
    expect(all.slice(0, 3).map((a) => a.guid)).toEqual(['late', 'g0', 'g1']);
    expect(all.at(-1)?.guid).toBe('g2099');
    expect((await readListed(db, ANN, BASE - 2 * MINUTE)).map((a) => a.guid)).toEqual(['late', 'g0', 'g1', 'g2']);
    expect((await readListedByIds(db, ANN, ['g7', 'late', 'missing', 'g3'])).map((a) => a.guid)).toEqual(['late', 'g3', 'g7']);
  });

  it('forgets a deleted order with its line items not waiting to be sent, and notes when the lab answered', async () => {
    const db = freshDb();
    await fillListPage(db, ANN, page([order(0), order(1)]), { range: null, ...ALL });
    await forgetOrder(db, 'g0');
    expect(await listed(db)).toEqual(['g1']);
    expect(await listSyncedAt(db, ANN)).toBeNull();
    await noteListAnswer(db, ANN, 42);
    expect(await listSyncedAt(db, ANN)).toBe(42);
  });
});

describe("the list's views", () => {
  it("asks an admin's list with HIDE OPEN and HIDE MY ORDERS on (docs/orders.md §4)", () => {
    expect(ADMIN_OPENING_FILTERS).toBe('hide_open,hide_mine');
  });

  it('checks filters and the merge photographer on the device; PRINTS (a flag the list does not carry) reconciles nothing', () => {
    expect(viewRule({ filters: '', photographerId: null }, 'me')).toBeNull();
    const rule = viewRule({ filters: 'hide_open,hide_mine', photographerId: null }, 'me');
    expect([order(0), order(1, { status: 'open' }), order(2, { photographer_id: 'me' })].map((a) => rule?.(a))).toEqual([true, false, false]);
    const merging = viewRule({ filters: '', photographerId: 'p2' }, 'me');
    expect([order(0), order(1, { photographer_id: 'p2' })].map((a) => merging?.(a))).toEqual([false, true]);
    expect(reconcileRule({ filters: 'prints', photographerId: null }, 'me')).toBeNull();
    expect(reconcileRule({ filters: '', photographerId: null }, 'me')).toEqual({ inView: null });
  });
});
