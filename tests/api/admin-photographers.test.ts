import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminActions, creditLedger, labOrders, sessions, users } from '../../server/db/schema.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { send } from './line-items-helpers.ts';

/** Photographers list, admin edits, log in as, API invoices (docs/api.md §6). */

let t: TestApp;
let admin: { guid: string; token: string };
let ann: Awaited<ReturnType<typeof createUser>>;
let annToken: string;

beforeAll(async () => {
  t = await createTestApp();
  const a = await createUser(t.db, { isAdmin: true, firstName: 'Lab', lastName: 'Boss' });
  admin = { guid: a.user.guid, token: await signIn(t.app, a.user.email, a.password) };
  ann = await createUser(t.db, { firstName: 'Ann', lastName: 'Adams', businessName: 'Adams Portraits', email: 'ann.adams@photo.example' });
  annToken = await signIn(t.app, ann.user.email, ann.password);
  await createUser(t.db, { firstName: 'Bob', lastName: 'Brown', businessName: 'Brown Weddings', email: 'bob@brown.example' });
  await t.db.insert(labOrders).values([
    { userGuid: ann.user.guid, orderName: 'One' },
    { userGuid: ann.user.guid, orderName: 'Two' },
  ]);
});
afterAll(() => t.close());

const list = async (query: { search?: string; per_page?: string; cursor?: string } = {}) => {
  const res = await callApi(t.app, 'GET /photographers', { query }, { token: admin.token });
  expect(res.status).toBe(200);
  return res.json();
};

describe('GET /photographers and /find_photographer', () => {
  it('lists one row per photographer with order count and credit; searches name, business, email from 3 characters', async () => {
    const all = await list();
    expect(all.data.map((r) => r.attributes.email)).toEqual(['ann.adams@photo.example', 'bob@brown.example']);
    expect(all.data[0]?.attributes).toMatchObject({ first_name: 'Ann', business_name: 'Adams Portraits', order_count: 2, credit_available: 0, user_approved: true });
    expect(all.meta).toMatchObject({ total: 2, next_cursor: null, current_user_is_admin: true });
    expect((await list({ search: 'adams por' })).data.map((r) => r.attributes.email)).toEqual(['ann.adams@photo.example']);
    expect((await list({ search: 'WEDD' })).data.map((r) => r.attributes.email)).toEqual(['bob@brown.example']);
    expect((await list({ search: 'ann ada' })).data).toHaveLength(1);
    // Fewer than 3 characters match everyone (the screen searches from 3).
    expect((await list({ search: 'an' })).data).toHaveLength(2);
    expect((await callApi(t.app, 'GET /find_photographer', { query: { query: 'brown.ex' } }, { token: admin.token })).json().data.map((r) => r.attributes.email)).toEqual(['bob@brown.example']);
  });

  it('pages by cursor', async () => {
    const first = await list({ per_page: '1' });
    expect(first.data).toHaveLength(1);
    const next = await list({ per_page: '1', cursor: first.meta.next_cursor ?? '' });
    expect(next.data.map((r) => r.attributes.email)).toEqual(['bob@brown.example']);
    expect(next.meta.next_cursor).toBeNull();
  });

  it('answers 403 to photographers', async () => {
    for (const path of ['/photographers', '/find_photographer?query=ann', '/api_invoices']) {
      const res = await send(t, 'GET', path, annToken);
      expect(res.statusCode).toBe(403);
      expectErrorBody(res.json(), 403);
    }
  });
});

describe('PATCH /users/{guid} admin types', () => {
  const edit = (body: Record<string, unknown>) => send(t, 'PATCH', `/users/${ann.user.guid}`, admin.token, body);

  it('sets credit, approval, email and password, one at a time, each recorded with who did it', async () => {
    const credit = await edit({ type: 'credit', value: '12.50' });
    expect(credit.statusCode).toBe(200);
    expect(credit.json().data.attributes.credit_available).toBe(12.5);
    expect((await t.db.select().from(creditLedger).where(eq(creditLedger.userGuid, ann.user.guid))).map((r) => [r.amountCents, r.reason])).toEqual([[1250, 'admin']]);
    expect((await edit({ type: 'status', value: 'not_approved' })).json().data.attributes.user_approved).toBe(false);
    expect((await edit({ type: 'status', value: 'approved' })).json().data.attributes.user_approved).toBe(true);
    expect((await edit({ type: 'email', value: 'Ann.New@Photo.example' })).json().data.attributes.email).toBe('ann.new@photo.example');
    const pw = await edit({ type: 'password', value: 'brand-new-pass', password_confirmation: 'brand-new-pass' });
    expect(pw.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/v2/login', payload: { email: 'ann.new@photo.example', password: 'brand-new-pass' } })).statusCode).toBe(200);
    // The old session ended with the old password.
    expect((await send(t, 'GET', '/profile', annToken)).statusCode).toBe(401);
    const actions = await t.db.select().from(adminActions).where(eq(adminActions.userGuid, ann.user.guid)).orderBy(adminActions.id);
    expect(actions.map((a) => a.kind)).toEqual(['credit', 'status', 'status', 'email', 'password']);
    expect(actions.every((a) => a.adminGuid === admin.guid)).toBe(true);
    annToken = await signIn(t.app, 'ann.new@photo.example', 'brand-new-pass');
    const page = (await send(t, 'GET', `/photographers/${ann.user.guid}`, admin.token)).json().data;
    expect(page.admin_actions.map((a: { kind: string }) => a.kind)).toEqual(['password', 'email', 'status', 'status', 'credit']);
    expect(page.admin_actions[0]).toMatchObject({ admin_guid: admin.guid, admin_name: 'Lab Boss' });
    expect((await send(t, 'GET', `/photographers/${ann.user.guid}`, annToken)).json().data).not.toHaveProperty('admin_actions');
  });

  it('refuses with the rules’ messages and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'password', value: 'short', password_confirmation: 'short' }, 'The password must be at least 8 characters.'],
      [{ type: 'password', value: 'long-enough-1', password_confirmation: 'long-enough-2' }, 'The password and its confirmation do not match.'],
      [{ type: 'email', value: 'bob@brown.example' }, 'Email in use'],
      [{ type: 'credit', value: '1.999' }, 'Enter the credit as an amount in dollars with at most 2 decimals, such as 12.50.'],
      [{ type: 'status', value: 'maybe' }, "status is 'approved' or 'not_approved'."],
    ];
    const before = await t.db.select().from(users).where(eq(users.guid, ann.user.guid));
    for (const [body, message] of cases) {
      const res = await edit(body);
      expect(res.statusCode).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toBe(message);
    }
    expect(await t.db.select().from(users).where(eq(users.guid, ann.user.guid))).toEqual(before);
  });

  it('answers 403 to a photographer using the admin types, even on their own account', async () => {
    const res = await send(t, 'PATCH', `/users/${ann.user.guid}`, annToken, { type: 'credit', value: '1000' });
    expect(res.statusCode).toBe(403);
  });
});

describe('POST /login_as_user', () => {
  it('opens a session as the photographer recording the admin; its logout leaves the admin signed in', async () => {
    const res = await callApi(t.app, 'POST /login_as_user', { body: { email: 'bob@brown.example' } }, { token: admin.token });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ email: 'bob@brown.example', name: 'Bob Brown', business_name: 'Brown Weddings' });
    expect(body.intercom_user_hash).toMatch(/^[0-9a-f]{64}$/);
    const profile = await callApi(t.app, 'GET /profile', {}, { token: body.token });
    expect(profile.json().user.email).toBe('bob@brown.example');
    const [session] = await t.db.select().from(sessions).where(eq(sessions.userGuid, body.guid));
    expect(session?.impersonatorGuid).toBe(admin.guid);
    // As Bob, the admin is not an admin: no admin calls.
    expect((await send(t, 'GET', '/photographers', body.token)).statusCode).toBe(403);
    expect((await send(t, 'DELETE', '/logout', body.token)).statusCode).toBe(200);
    expect((await send(t, 'GET', '/profile', body.token)).statusCode).toBe(401);
    expect((await send(t, 'GET', '/photographers', admin.token)).statusCode).toBe(200);
    expect((await t.db.select().from(adminActions).where(eq(adminActions.kind, 'login_as'))).map((a) => a.adminGuid)).toEqual([admin.guid]);
  });

  it('refuses an unknown email (404) and another admin (422)', async () => {
    expect((await send(t, 'POST', '/login_as_user', admin.token, { email: 'nobody@x.example' })).statusCode).toBe(404);
    const other = await createUser(t.db, { isAdmin: true });
    expect((await send(t, 'POST', '/login_as_user', admin.token, { email: other.user.email })).statusCode).toBe(422);
  });
});

describe('GET /api_invoices', () => {
  it('groups paid API orders by month, for an admin all, for a vendor their own', async () => {
    const vendor = await createUser(t.db, { isApiVendor: true });
    const other = await createUser(t.db, { isApiVendor: true });
    const at = (iso: string) => new Date(iso);
    await t.db.insert(labOrders).values([
      { userGuid: vendor.user.guid, orderName: 'V1', apiOrder: true, status: 'paid', paidAt: at('2026-09-03T10:00:00Z'), totalCents: 1000 },
      { userGuid: vendor.user.guid, orderName: 'V2', apiOrder: true, status: 'shipped', paidAt: at('2026-09-20T10:00:00Z'), totalCents: 2550 },
      { userGuid: vendor.user.guid, orderName: 'V3', apiOrder: true, status: 'paid', paidAt: at('2026-10-01T10:00:00Z'), totalCents: 500 },
      { userGuid: vendor.user.guid, orderName: 'V open', apiOrder: true },
      { userGuid: other.user.guid, orderName: 'O1', apiOrder: true, status: 'paid', paidAt: at('2026-10-05T10:00:00Z'), totalCents: 700 },
      { userGuid: ann.user.guid, orderName: 'Not API', status: 'paid', paidAt: at('2026-10-05T10:00:00Z'), totalCents: 9900 },
    ]);
    const vendorToken = await signIn(t.app, vendor.user.email, vendor.password);
    const mine = await callApi(t.app, 'GET /api_invoices', {}, { token: vendorToken });
    expect(mine.json().data).toEqual([
      { month: '2026-10', orders: 1, total: 5 },
      { month: '2026-09', orders: 2, total: 35.5 },
    ]);
    expect((await callApi(t.app, 'GET /api_invoices', {}, { token: admin.token })).json().data).toEqual([
      { month: '2026-10', orders: 2, total: 12 },
      { month: '2026-09', orders: 2, total: 35.5 },
    ]);
  });
});
