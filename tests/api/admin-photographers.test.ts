import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminActions, creditLedger, labOrders, sessions, users } from '../../server/db/schema.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { callAs } from './photo-helpers.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';

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
    const calls = [
      await callApi(t.app, 'GET /photographers', { query: {} }, { token: annToken }),
      await callApi(t.app, 'GET /find_photographer', { query: { query: 'ann' } }, { token: annToken }),
      await callApi(t.app, 'GET /api_invoices', {}, { token: annToken }),
    ];
    for (const res of calls) {
      expect(res.status).toBe(403);
      expectErrorBody(res.json(), 403);
    }
  });
});

type UserChange = InputOf<Contract['PATCH /users/:guid']>['body'];

describe('PATCH /users/{guid} admin types', () => {
  const edit = (body: UserChange) => callAs(t.app, 'PATCH /users/:guid', { params: { guid: ann.user.guid }, body }, { token: admin.token });
  /** The photographer an admin's edit answers (the call's other answers are the profile and the referral code's). */
  const edited = (res: Awaited<ReturnType<typeof edit>>) => {
    const body = res.json();
    if (!('data' in body)) throw new Error(`expected the photographer, got ${JSON.stringify(body)}`);
    return body.data.attributes;
  };

  it('sets credit, approval, email and password, one at a time, each recorded with who did it', async () => {
    const credit = await edit({ type: 'credit', value: '12.50' });
    expect(credit.status).toBe(200);
    expect(edited(credit).credit_available).toBe(12.5);
    expect((await t.db.select().from(creditLedger).where(eq(creditLedger.userGuid, ann.user.guid))).map((r) => [r.amountCents, r.reason])).toEqual([[1250, 'admin']]);
    expect(edited(await edit({ type: 'status', value: 'not_approved' })).user_approved).toBe(false);
    expect(edited(await edit({ type: 'status', value: 'approved' })).user_approved).toBe(true);
    expect(edited(await edit({ type: 'email', value: 'Ann.New@Photo.example' })).email).toBe('ann.new@photo.example');
    const pw = await edit({ type: 'password', value: 'brand-new-pass', password_confirmation: 'brand-new-pass' });
    expect(pw.status).toBe(200);
    expect((await callApi(t.app, 'POST /login', { body: { email: 'ann.new@photo.example', password: 'brand-new-pass' } })).status).toBe(200);
    // The old session ended with the old password.
    expect((await callApi(t.app, 'GET /profile', {}, { token: annToken })).status).toBe(401);
    const actions = await t.db.select().from(adminActions).where(eq(adminActions.userGuid, ann.user.guid)).orderBy(adminActions.id);
    expect(actions.map((a) => a.kind)).toEqual(['credit', 'status', 'status', 'email', 'password']);
    expect(actions.every((a) => a.adminGuid === admin.guid)).toBe(true);
    annToken = await signIn(t.app, 'ann.new@photo.example', 'brand-new-pass');
    const page = (await callApi(t.app, 'GET /photographers/:guid', { params: { guid: ann.user.guid } }, { token: admin.token })).json().data;
    expect(page.admin_actions?.map((a) => a.kind)).toEqual(['password', 'email', 'status', 'status', 'credit']);
    expect(page.admin_actions?.[0]).toMatchObject({ admin_guid: admin.guid, admin_name: 'Lab Boss' });
    expect((await callApi(t.app, 'GET /photographers/:guid', { params: { guid: ann.user.guid } }, { token: annToken })).json().data).not.toHaveProperty('admin_actions');
  });

  it('refuses with the rules’ messages and changes nothing', async () => {
    const cases: [UserChange, string][] = [
      [{ type: 'password', value: 'short', password_confirmation: 'short' }, 'The password must be at least 8 characters.'],
      [{ type: 'password', value: 'long-enough-1', password_confirmation: 'long-enough-2' }, 'The password and its confirmation do not match.'],
      [{ type: 'email', value: 'bob@brown.example' }, 'Email in use'],
      [{ type: 'credit', value: '1.999' }, 'Enter the credit as an amount in dollars with at most 2 decimals, such as 12.50.'],
      [{ type: 'status', value: 'maybe' }, "status is 'approved' or 'not_approved'."],
    ];
    const before = await t.db.select().from(users).where(eq(users.guid, ann.user.guid));
    for (const [body, message] of cases) {
      const res = await edit(body);
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toBe(message);
    }
    expect(await t.db.select().from(users).where(eq(users.guid, ann.user.guid))).toEqual(before);
  });

  it('answers 403 to a photographer using the admin types, even on their own account', async () => {
    const res = await callAs(t.app, 'PATCH /users/:guid', { params: { guid: ann.user.guid }, body: { type: 'credit', value: '1000' } }, { token: annToken });
    expect(res.status).toBe(403);
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
    expect((await callApi(t.app, 'GET /photographers', { query: {} }, { token: body.token })).status).toBe(403);
    expect((await callAs(t.app, 'DELETE /logout', {}, { token: body.token })).status).toBe(200);
    expect((await callApi(t.app, 'GET /profile', {}, { token: body.token })).status).toBe(401);
    expect((await callApi(t.app, 'GET /photographers', { query: {} }, { token: admin.token })).status).toBe(200);
    expect((await t.db.select().from(adminActions).where(eq(adminActions.kind, 'login_as'))).map((a) => a.adminGuid)).toEqual([admin.guid]);
  });

  it('refuses an unknown email (404) and another admin (422)', async () => {
    expect((await callAs(t.app, 'POST /login_as_user', { body: { email: 'nobody@x.example' } }, { token: admin.token })).status).toBe(404);
    const other = await createUser(t.db, { isAdmin: true });
    expect((await callAs(t.app, 'POST /login_as_user', { body: { email: other.user.email } }, { token: admin.token })).status).toBe(422);
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
