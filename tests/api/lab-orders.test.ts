import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders } from '../../server/db/schema.ts';
import { labOrdersAnswer } from '../../src/contract/lab-orders.ts';
import type { AnswerOf, InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

type ListAnswer = AnswerOf<Contract['GET /lab_orders']>;
type ListQuery = InputOf<Contract['GET /lab_orders']>['query'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /lab_orders', () => {
  it('shows a photographer only their own orders, and an admin all of them, with the meta block', async () => {
    const ann = await createUser(t.db, { firstName: 'Ann' });
    const bob = await createUser(t.db, { firstName: 'Bob' });
    const admin = await createUser(t.db, { isAdmin: true });
    await t.db.insert(labOrders).values([
      { userGuid: ann.user.guid, orderName: 'Wedding 2026' },
      { userGuid: bob.user.guid, orderName: 'Portfolio' },
    ]);

    const annToken = await signIn(t.app, ann.user.email, ann.password);
    const mine = await callApi(t.app, 'GET /lab_orders', { query: {} }, { token: annToken });
    expect(mine.status).toBe(200);
    const body = mine.json();
    expect(body.data.map((d) => d.attributes.order_name)).toEqual(['Wedding 2026']);
    expect(body.data[0]).toMatchObject({ type: 'lab_order', attributes: { status: 'open', photographer_email: ann.user.email } });
    expect(body.meta).toEqual({
      current_user_is_admin: false,
      current_user_is_api_vendor: false,
      view_as_photographer_id: null,
      view_as_photographer: null,
      total: 1,
      per_page: 50,
      next_cursor: null,
      urgent_count: 0,
    });

    const adminToken = await signIn(t.app, admin.user.email, admin.password);
    const all = await callApi(t.app, 'GET /lab_orders', { query: {} }, { token: adminToken });
    expect(all.json().data.map((d) => d.attributes.order_name).sort()).toEqual(['Portfolio', 'Wedding 2026']);
    expect(all.json().meta.current_user_is_admin).toBe(true);
  });
});

describe('GET /lab_orders, a page at a time', () => {
  let adminToken: string;
  let annToken: string;
  let annEmail: string;
  const list = async (token: string, query: ListQuery = {}) => {
    const res = await callApi(t.app, 'GET /lab_orders', { query }, { token });
    return { status: res.status, body: res.json() };
  };
  /** Every page from the first, following next_cursor. */
  const allPages = async (token: string, query: ListQuery) => {
    const pages: ListAnswer[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await list(token, { ...query, ...(cursor ? { cursor } : {}) });
      expect(status).toBe(200);
      pages.push(body);
      cursor = body.meta.next_cursor;
    } while (cursor && pages.length < 100);
    return pages;
  };

  beforeAll(async () => {
    const ann = await createUser(t.db, { firstName: 'Ann', lastName: 'Paged', businessName: 'Ann Portraits' });
    const bob = await createUser(t.db, { firstName: 'Bob', lastName: 'Paged' });
    const admin = await createUser(t.db, { isAdmin: true });
    adminToken = await signIn(t.app, admin.user.email, admin.password);
    annToken = await signIn(t.app, ann.user.email, ann.password);
    annEmail = ann.user.email;
    // 130 orders, a microsecond apart, several sharing one instant (the id breaks the tie), some
    // paid (the paid date is the one shown and sorted by); all newer than the orders above.
    const base = "timestamptz '2030-03-01 12:00:00.000001+00'";
    await t.db.insert(labOrders).values(
      Array.from({ length: 130 }, (_, i) => ({
        userGuid: i % 3 === 0 ? bob.user.guid : ann.user.guid,
        orderName: i === 7 ? 'Smith 100% proof' : `Paged ${String(i).padStart(3, '0')}`,
        updatedAt: sql.raw(`${base} + interval '1 microsecond' * ${Math.floor(i / 4)}`) as unknown as Date,
        paidAt: i % 10 === 0 ? (sql.raw(`${base} + interval '1 day' + interval '1 microsecond' * ${i}`) as unknown as Date) : null,
      })),
    );
  });

  it('pages newest first by the shown date, each order once, with the total on every page', async () => {
    const pages = await allPages(adminToken, { per_page: 40 });
    const rows = pages.flatMap((p) => p.data);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    expect(pages.every((p) => p.meta.total === rows.length && p.meta.per_page === 40)).toBe(true);
    expect(pages.at(-1)?.meta.next_cursor).toBeNull();
    expect(new Set(rows.map((r) => r.attributes.guid)).size).toBe(rows.length);
    // Newest first by paid date, else updated date; the newer id first within one instant.
    const keys = rows.map((r) => [r.attributes.paid_at ?? r.attributes.updated_at, Number(r.id)] as const);
    const sorted = [...keys].sort((a, b) => (a[0] === b[0] ? b[1] - a[1] : a[0] < b[0] ? 1 : -1));
    expect(keys).toEqual(sorted);
    expect(rows.slice(0, 13).every((r) => r.attributes.paid_at !== null)).toBe(true);
    // The same list in one page (the first page sent without any parameter holds the default 50).
    const first = await list(adminToken);
    expect(first.body.data).toHaveLength(50);
    expect(first.body.data.map((r) => r.id)).toEqual(rows.slice(0, 50).map((r) => r.id));
  });

  it('shows a photographer only their own orders, on every page', async () => {
    const pages = await allPages(annToken, { per_page: 25 });
    const rows = pages.flatMap((p) => p.data);
    expect(rows.length).toBe(86);
    expect(pages[0]?.meta.total).toBe(86);
    expect(rows.every((r) => r.attributes.photographer_email === annEmail)).toBe(true);
  });

  it('searches every order, not only a page, with wildcards taken literally', async () => {
    const paid = await allPages(adminToken, { search: 'paged 12', per_page: 5 });
    expect(paid.flatMap((p) => p.data.map((r) => r.attributes.order_name)).sort()).toEqual([
      'Paged 120', 'Paged 121', 'Paged 122', 'Paged 123', 'Paged 124', 'Paged 125', 'Paged 126', 'Paged 127', 'Paged 128', 'Paged 129',
    ]);
    expect(paid[0]?.meta.total).toBe(10);
    expect((await list(adminToken, { search: '100%' })).body.data.map((r) => r.attributes.order_name)).toEqual(['Smith 100% proof']);
    expect((await list(adminToken, { search: '1_0' })).body.meta.total).toBe(0);
    // By photographer and business, and a photographer's search stays within their own orders.
    expect((await list(adminToken, { search: 'ann portraits' })).body.meta.total).toBe(86);
    expect((await list(annToken, { search: 'bob paged' })).body.meta.total).toBe(0);
    // By a piece of the order's guid, as a lab reads it off a packing slip.
    const someone = (await list(adminToken, { per_page: 1 })).body.data[0]?.attributes.guid ?? '';
    expect((await list(adminToken, { search: someone.slice(0, 13).toUpperCase() })).body.data.map((r) => r.attributes.guid)).toEqual([someone]);
  });

  it('refuses a page size out of bounds and a cursor it did not give, with the error body', async () => {
    for (const per_page of [0, 201, 'ten', 2.5]) {
      const res = await list(adminToken, { per_page });
      expect([per_page, res.status]).toEqual([per_page, 422]);
      expect(expectErrorBody(res.body, 422).message).toBe('per_page must be a whole number from 1 to 200.');
    }
    expect((await list(adminToken, { per_page: 200 })).body.data).toHaveLength(132);
    for (const cursor of ['nonsense', Buffer.from('["2026-01-01", 1]').toString('base64url')]) {
      const res = await list(adminToken, { cursor });
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.body, 422).message).toBe('This list position is not valid. Please reload the list.');
    }
    expect((await list(adminToken, { search: 'x'.repeat(101) })).status).toBe(422);
  });

  it("matches the route's schema, and writes each card's fields as the order record does", async () => {
    const cara = await createUser(t.db, { firstName: 'Cara', businessName: 'Cara Studio' });
    const admin = await createUser(t.db, { isAdmin: true });
    // Microseconds in the dates: the list writes them as the record does (to the millisecond).
    await t.db.insert(labOrders).values([
      { userGuid: cara.user.guid, orderName: 'Schema paid', status: 'paid', paidAt: sql`'2026-03-04 05:06:07.123999+00'::timestamptz`, createdAt: sql`'2026-03-01 00:00:00.000500+00'::timestamptz`, urgent: true, notes: 'Rush', internalNotes: 'Call', localPickup: true, totalCents: 12345, trackingUrl: 'https://track.example/1' },
      { userGuid: cara.user.guid, orderName: 'Schema open', updatedAt: sql`'2026-03-05 23:59:59.999999+00'::timestamptz`, hasFrame: true, hasCanvas: true, testPrint: true, colorCorrection: 'as_is' },
    ]);
    for (const user of [cara, admin]) {
      const token = await signIn(t.app, user.user.email, user.password);
      const res = await callApi(t.app, 'GET /lab_orders', { query: { search: 'Schema' } }, { token });
      expect(res.status).toBe(200);
      const answer = res.json();
      // The route sends what the service built without checking it (plainJsonSerializer): here it is.
      expect(labOrdersAnswer.strict().parse(answer)).toBeTruthy();
      expect(answer.data).toHaveLength(2);
      for (const card of answer.data) {
        expect(Object.keys(card.attributes).sort()).toEqual(Object.keys(labOrdersAnswer.shape.data.element.shape.attributes.shape).sort());
        const record = await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: card.attributes.guid } }, { token });
        const full: Record<string, unknown> = record.json().data.attributes;
        for (const [field, value] of Object.entries(card.attributes)) expect([field, value]).toEqual([field, full[field]]);
      }
    }
  });

  it('answers no-store and 401 without a session', async () => {
    const res = await callApi(t.app, 'GET /lab_orders', { query: { per_page: 5 } });
    expect(res.status).toBe(401);
    expect(res.response.headers['cache-control']).toBe('no-store');
  });
});
