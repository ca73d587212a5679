/**
 * meta.total of the admin's orders list comes from the count kept by triggers on lab_orders
 * (migration 0017_order_counts), not from counting every order. These tests hold it against the
 * truth, a count(*) of lab_orders, across every way the orders change: the API's create, bulk
 * inserts, refused duplicates, status and date changes, deletes (one, many, a photographer's
 * cascade, the delete half of a merge), rolled-back transactions and truncation; and check that
 * a search still counts its own matches.
 */
import { count, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders, users } from '../../server/db/schema.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, signIn, type TestApp } from './helper.ts';

interface ListMeta {
  total: number;
  next_cursor: string | null;
}

let t: TestApp;
let adminToken: string;
let ann: Awaited<ReturnType<typeof createUser>>;
let annToken: string;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t.db, { isAdmin: true });
  adminToken = await signIn(t.app, admin.user.email, admin.password);
  ann = await createUser(t.db, { firstName: 'Ann', lastName: 'Counted' });
  annToken = await signIn(t.app, ann.user.email, ann.password);
});
afterAll(() => t.close());

/** The list's meta as a caller sees it; one order a page, so the total is never a page's length. */
async function listMeta(token: string, search?: string): Promise<ListMeta> {
  const res = await callApi(t.app, 'GET /lab_orders', { query: { per_page: 1, ...(search ? { search } : {}) } }, { token });
  expect(res.status).toBe(200);
  return res.json().meta;
}

const truth = async () => (await t.db.select({ n: count() }).from(labOrders))[0]?.n ?? -1;

/** The admin's total equals the real number of orders, and that number is `expected`. */
async function expectTotal(expected: number) {
  expect(await truth()).toBe(expected);
  expect((await listMeta(adminToken)).total).toBe(expected);
}

const ordersOf = (userGuid: string, names: string[]) => names.map((orderName) => ({ userGuid, orderName }));

describe("the admin's meta.total", () => {
  it('follows creates through the API and in bulk, and ignores a refused duplicate', async () => {
    const start = await truth();
    await expectTotal(start);

    const created = await callApi(t.app, 'POST /lab_orders', { body: { order_name: 'Count one' } }, { token: annToken });
    expect(created.status).toBe(201);
    await expectTotal(start + 1);

    // The same name again is refused: nothing inserted, nothing counted.
    const again = await callApi(t.app, 'POST /lab_orders', { body: { order_name: 'count ONE' } }, { token: annToken });
    expect(again.status).toBe(422);
    await expectTotal(start + 1);

    const bob = await createUser(t.db, { firstName: 'Bob' });
    await t.db.insert(labOrders).values(ordersOf(bob.user.guid, Array.from({ length: 25 }, (_, i) => `Bulk ${i}`)));
    await expectTotal(start + 26);
    // A bulk insert that conflicts on every row inserts and counts nothing.
    await t.db
      .insert(labOrders)
      .values(ordersOf(bob.user.guid, ['Bulk 1', 'Bulk 2']))
      .onConflictDoNothing();
    await expectTotal(start + 26);
  });

  it('does not move when orders change status, dates or names', async () => {
    await t.db.insert(labOrders).values(ordersOf(ann.user.guid, ['Status a', 'Status b']));
    const before = await truth();
    await t.db.update(labOrders).set({ status: 'paid', paidAt: new Date() }).where(eq(labOrders.orderName, 'Status a'));
    await t.db.update(labOrders).set({ status: 'cancelled', orderName: 'Status b renamed' }).where(eq(labOrders.orderName, 'Status b'));
    await t.db.update(labOrders).set({ updatedAt: sql`now()` });
    expect(await truth()).toBe(before);
    expect((await listMeta(adminToken)).total).toBe(before);
  });

  it("follows deletes: one order, several at once, a merge's removed order and a photographer's cascade", async () => {
    const cara = await createUser(t.db, { firstName: 'Cara' });
    const [first, second, ...rest] = await t.db
      .insert(labOrders)
      .values(ordersOf(cara.user.guid, ['Merge into', 'Merge from', 'Gone 1', 'Gone 2', 'Gone 3', 'Kept']))
      .returning({ id: labOrders.id, orderName: labOrders.orderName });
    const before = await truth();

    await t.db.delete(labOrders).where(eq(labOrders.id, rest[0]!.id));
    await expectTotal(before - 1);
    await t.db.delete(labOrders).where(inArray(labOrders.id, [rest[1]!.id, rest[2]!.id]));
    await expectTotal(before - 3);

    // A merge moves the second order's contents into the first and deletes the second, in one
    // transaction: the count drops by one with it.
    await t.db.transaction(async (tx) => {
      await tx.update(labOrders).set({ updatedAt: sql`now()` }).where(eq(labOrders.id, first!.id));
      await tx.delete(labOrders).where(eq(labOrders.id, second!.id));
    });
    await expectTotal(before - 4);

    // Deleting the photographer deletes their orders through the foreign key's cascade.
    await t.db.delete(users).where(eq(users.guid, cara.user.guid));
    expect(await truth()).toBe(before - 6);
    expect((await listMeta(adminToken)).total).toBe(before - 6);
  });

  it('is not changed by a transaction that rolls back', async () => {
    const before = await truth();
    const rollback = new Error('rolled back on purpose');
    await expect(
      t.db.transaction(async (tx) => {
        await tx.insert(labOrders).values(ordersOf(ann.user.guid, ['Never 1', 'Never 2']));
        await tx.delete(labOrders).where(eq(labOrders.orderName, 'Count one'));
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    await expectTotal(before);
  });

  it('stays equal to the real count through any sequence of inserts and deletes', async () => {
    const dan = await createUser(t.db, { firstName: 'Dan' });
    let made = 0;
    // Each step inserts some orders or deletes some of Dan's, by a random choice of ids.
    const step = fc.oneof(
      fc.record({ insert: fc.integer({ min: 0, max: 4 }) }),
      fc.record({ remove: fc.integer({ min: 0, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const s of steps) {
          if ('insert' in s) {
            if (s.insert === 0) continue;
            await t.db.insert(labOrders).values(ordersOf(dan.user.guid, Array.from({ length: s.insert }, () => `Random ${(made += 1)}`)));
          } else {
            const ids = await t.db.select({ id: labOrders.id }).from(labOrders).where(eq(labOrders.userGuid, dan.user.guid)).limit(s.remove);
            if (ids.length) await t.db.delete(labOrders).where(inArray(labOrders.id, ids.map((r) => r.id)));
          }
        }
        expect((await listMeta(adminToken)).total).toBe(await truth());
      }),
      // Each run costs a few statements on the embedded database: enough sequences to mix every
      // kind of step, few enough to keep the file within seconds.
      { numRuns: 15 },
    );
  });

  it('starts again from zero when the orders are truncated', async () => {
    await t.db.insert(labOrders).values(ordersOf(ann.user.guid, ['Before truncate']));
    // CASCADE: line items and credit entries point at orders.
    await t.db.execute(sql`truncate ${labOrders} cascade`);
    expect((await listMeta(adminToken)).total).toBe(0);
    await t.db.insert(labOrders).values(ordersOf(ann.user.guid, ['After 1', 'After 2']));
    await expectTotal(2);
  });
});

describe('meta.total of a search and of a photographer', () => {
  it('counts only the matching orders, and only their own for a photographer', async () => {
    const erin = await createUser(t.db, { firstName: 'Erin', lastName: 'Searched' });
    const erinToken = await signIn(t.app, erin.user.email, erin.password);
    await t.db.insert(labOrders).values([...ordersOf(erin.user.guid, ['Zebra 1', 'Zebra 2', 'Zebra 3', 'Plain']), ...ordersOf(ann.user.guid, ['Zebra ann'])]);

    expect((await listMeta(adminToken, 'zebra')).total).toBe(4);
    expect((await listMeta(adminToken, 'erin searched')).total).toBe(4);
    expect((await listMeta(erinToken, 'zebra')).total).toBe(3);
    expect((await listMeta(erinToken)).total).toBe(4);

    await t.db.delete(labOrders).where(eq(labOrders.orderName, 'Zebra 2'));
    expect((await listMeta(adminToken, 'zebra')).total).toBe(3);
    expect((await listMeta(erinToken)).total).toBe(3);
    await expectTotal(await truth());
  });
});
