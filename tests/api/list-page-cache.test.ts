/**
 * Orders-list pages are kept in memory: a photographer's under the version of their orders
 * (server/services/list-page-cache.ts; the version is written by a trigger on lab_orders at the
 * commit of any change, migration 0021_order_versions), an admin's under the lab's version
 * (migration 0026_lab_order_version). These tests hold every kept page against
 * the same page built afresh (a search for the photographer's own name is never kept and lists
 * the same orders) across every way the orders change: the API's create, changes of any column,
 * the triggers' own changes (a photo's cover, line items' flags), deletes, rolled-back
 * transactions and truncation; an admin's also across other photographers' changes and names.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrderVersion, labOrders, orderVersions, photographs, users } from '../../server/db/schema.ts';
import type { AnswerOf, InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, signIn, type TestApp } from './helper.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof createUser>>;
let token: string;
// Per page: small, so a few orders make several pages (each kept under its own cursor).
const PER_PAGE = 3;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.db, { firstName: 'Kept', lastName: 'Pagesmith', businessName: 'Pagesmith Studio' });
  token = await signIn(t.app, owner.user.email, owner.password);
});
afterAll(() => t.close());

type Page = AnswerOf<Contract['GET /lab_orders']>;

/** Creates an order as the page does (POST /lab_orders), by the photographer of `as`. */
const createOrder = (order_name: string, as = token) => callApi(t.app, 'POST /lab_orders', { body: { order_name } }, { token: as });

async function page(query: InputOf<Contract['GET /lab_orders']>['query'], as = token): Promise<Page> {
  const res = await callApi(t.app, 'GET /lab_orders', { query: { per_page: PER_PAGE, ...query } }, { token: as });
  expect(res.status).toBe(200);
  expect(res.response.headers['content-type']).toBe('application/json; charset=utf-8');
  return res.json();
}

/** Every page of the list as kept (read twice: the second read is the kept one) equals the page built afresh. */
async function expectKeptPagesFresh(): Promise<number> {
  let cursor: string | null = null;
  let pages = 0;
  do {
    const at: Record<string, string> = cursor ? { cursor } : {};
    const first = await page(at);
    const again = await page(at);
    const fresh = await page({ ...at, search: 'Pagesmith' });
    expect(again).toEqual(first);
    expect(first).toEqual(fresh);
    cursor = first.meta.next_cursor;
    pages += 1;
  } while (cursor && pages < 20);
  return pages;
}

const version = async () => (await t.db.select({ v: orderVersions.version }).from(orderVersions).where(eq(orderVersions.userGuid, owner.user.guid)))[0]?.v ?? null;
const ownOrders = async () => (await t.db.select({ id: labOrders.id }).from(labOrders).where(eq(labOrders.userGuid, owner.user.guid)).orderBy(labOrders.id)).map((r) => r.id);

const photo = (labOrderId: number) => ({
  labOrderId,
  fileName: 'IMG_1.jpg',
  key: `photos/${randomUUID()}.jpg`,
  size: 1000,
  checksum: randomBytes(32).toString('hex'),
  contentType: 'image/jpeg',
  width: 300,
  height: 200,
});

describe("a photographer's kept list pages", () => {
  it('get a new version with each committed change of their orders, none with a rolled-back one', async () => {
    expect(await version()).toBeNull();
    const created = await createOrder('Kept one');
    expect(created.status).toBe(201);
    const v1 = await version();
    expect(v1).not.toBeNull();
    await expectKeptPagesFresh();

    const [id = 0] = await ownOrders();
    await t.db.update(labOrders).set({ status: 'paid', paidAt: new Date() }).where(eq(labOrders.id, id));
    const v2 = await version();
    expect(v2).not.toBe(v1);
    await expectKeptPagesFresh();

    // The cover trigger changes the order: a new version too.
    await t.db.insert(photographs).values(photo(id));
    expect(await version()).not.toBe(v2);
    await expectKeptPagesFresh();

    const before = await version();
    await expect(
      t.db.transaction(async (tx) => {
        await tx.update(labOrders).set({ orderName: 'Never seen' }).where(eq(labOrders.id, id));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await version()).toBe(before);
    await expectKeptPagesFresh();
  });

  it('always equal the page built afresh, through any sequence of changes', async () => {
    type Step = { kind: 'create' | 'rename' | 'status' | 'urgent' | 'photo' | 'thumb' | 'unphoto' | 'delete'; pick: number };
    const step: fc.Arbitrary<Step> = fc.record({ kind: fc.constantFrom('create', 'rename', 'status', 'urgent', 'photo', 'thumb', 'unphoto', 'delete'), pick: fc.nat(50) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const s of steps) {
          const ids = await ownOrders();
          const id = ids[s.pick % Math.max(1, ids.length)];
          if (s.kind === 'create' || id === undefined) {
            const res = await createOrder(`Kept ${randomUUID().slice(0, 8)}`);
            if (res.status !== 201) throw new Error(`create answered ${res.status}`);
          } else if (s.kind === 'rename') await t.db.update(labOrders).set({ orderName: `Renamed ${randomUUID().slice(0, 8)}` }).where(eq(labOrders.id, id));
          else if (s.kind === 'status') await t.db.update(labOrders).set({ status: 'shipped', updatedAt: sql`now()` }).where(eq(labOrders.id, id));
          else if (s.kind === 'urgent') await t.db.update(labOrders).set({ urgent: sql`not ${labOrders.urgent}` }).where(eq(labOrders.id, id));
          else if (s.kind === 'photo') await t.db.insert(photographs).values(photo(id));
          else if (s.kind === 'thumb') await t.db.update(photographs).set({ thumbnailKey: `thumbs/${randomUUID()}.webp` }).where(eq(photographs.labOrderId, id));
          else if (s.kind === 'unphoto') await t.db.delete(photographs).where(eq(photographs.labOrderId, id));
          else await t.db.delete(labOrders).where(inArray(labOrders.id, [id]));
          await expectKeptPagesFresh();
        }
      }),
      { numRuns: 8 },
    );
    expect(await expectKeptPagesFresh()).toBeGreaterThan(0);
  });

  it('start again after a truncate (no version, nothing kept is answered)', async () => {
    await expectKeptPagesFresh();
    await t.db.execute(sql`truncate ${labOrders} cascade`);
    expect(await version()).toBeNull();
    expect((await page({})).data).toEqual([]);
    const res = await createOrder('After truncate');
    expect(res.status).toBe(201);
    expect(await version()).not.toBeNull();
    expect((await page({})).data.map((d) => d.attributes.order_name)).toEqual(['After truncate']);
    await expectKeptPagesFresh();
  });
});

describe("an admin's kept list pages", () => {
  let admin: string;
  let adminUser: Awaited<ReturnType<typeof createUser>>;
  let other: Awaited<ReturnType<typeof createUser>>;
  let otherToken: string;
  const labVersion = async () => (await t.db.select({ v: labOrderVersion.version }).from(labOrderVersion))[0]?.v ?? null;

  beforeAll(async () => {
    adminUser = await createUser(t.db, { isAdmin: true, firstName: 'Lab', lastName: 'Keeper' });
    admin = await signIn(t.app, adminUser.user.email, adminUser.password);
    other = await createUser(t.db, { firstName: 'Other', lastName: 'Shooter', businessName: 'Other Studio' });
    otherToken = await signIn(t.app, other.user.email, other.password);
    for (const [as, name] of [[otherToken, 'Other first'], [otherToken, 'Other second'], [admin, 'Admin own']] as const) {
      const res = await createOrder(name, as);
      if (res.status !== 201) throw new Error(`create answered ${res.status}`);
    }
  });

  /**
   * Every page an admin reads, as the app asks (no filters, and hide_open,hide_mine) and as kept
   * (read twice), equals the page built afresh: a search for '-' is never kept and matches every
   * order (each guid holds one).
   */
  async function expectAdminPagesFresh(): Promise<void> {
    for (const filters of [{}, { filters: 'hide_open,hide_mine' }] as Record<string, string>[]) {
      let cursor: string | null = null;
      let pages = 0;
      do {
        const at: Record<string, string> = { ...filters, ...(cursor ? { cursor } : {}) };
        const first = await page(at, admin);
        expect(await page(at, admin)).toEqual(first);
        expect(first).toEqual(await page({ ...at, search: '-' }, admin));
        cursor = first.meta.next_cursor;
        pages += 1;
      } while (cursor && pages < 20);
    }
  }

  it("show any photographer's change, a photographer's new name, and the admin's own orders hidden by hide_mine", async () => {
    await expectAdminPagesFresh();
    const v1 = await labVersion();
    expect(v1).not.toBeNull();

    await t.db.update(labOrders).set({ status: 'paid', paidAt: new Date() }).where(eq(labOrders.userGuid, other.user.guid));
    expect(await labVersion()).not.toBe(v1);
    await expectAdminPagesFresh();
    expect((await page({ filters: 'hide_open,hide_mine' }, admin)).data.map((d) => d.attributes.order_name)).toEqual(expect.arrayContaining(['Other first', 'Other second']));

    // The cards show the photographer's name: a new name is a new version.
    const v2 = await labVersion();
    await t.db.update(users).set({ firstName: 'Renamed' }).where(eq(users.guid, other.user.guid));
    expect(await labVersion()).not.toBe(v2);
    await expectAdminPagesFresh();
    expect((await page({}, admin)).data.filter((d) => d.attributes.photographer_id === other.user.guid).map((d) => d.attributes.photographer_name)).toContain('Renamed Shooter');

    // What no card shows changes no version.
    const v3 = await labVersion();
    await t.db.update(users).set({ phone: '5550100' }).where(eq(users.guid, other.user.guid));
    expect(await labVersion()).toBe(v3);

    // Another admin keeps their own page: hide_mine hides their orders, not this admin's.
    const second = await createUser(t.db, { isAdmin: true });
    const secondToken = await signIn(t.app, second.user.email, second.password);
    await t.db.update(labOrders).set({ status: 'paid', paidAt: new Date() }).where(eq(labOrders.userGuid, adminUser.user.guid));
    const names = async (as: string) => (await page({ filters: 'hide_open,hide_mine', per_page: '100' }, as)).data.map((d) => d.attributes.order_name);
    expect(await names(admin)).not.toContain('Admin own');
    expect(await names(secondToken)).toContain('Admin own');
    expect(await names(admin)).not.toContain('Admin own');
    await expectAdminPagesFresh();
  });

  it('start again after a truncate', async () => {
    await expectAdminPagesFresh();
    await t.db.execute(sql`truncate ${labOrders} cascade`);
    expect((await page({}, admin)).data).toEqual([]);
    const res = await createOrder('After truncate', otherToken);
    expect(res.status).toBe(201);
    expect((await page({}, admin)).data.map((d) => d.attributes.order_name)).toEqual(['After truncate']);
    await expectAdminPagesFresh();
  });
});
