import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders } from '../../server/db/schema.ts';
import { api, createTestApp, createUser, signIn, type TestApp } from './helper.ts';

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
    const mine = await t.app.inject({ method: 'GET', url: api('/lab_orders'), headers: { token: annToken } });
    expect(mine.statusCode).toBe(200);
    const body = mine.json();
    expect(body.data.map((d: { attributes: { order_name: string } }) => d.attributes.order_name)).toEqual(['Wedding 2026']);
    expect(body.data[0]).toMatchObject({ type: 'lab_order', attributes: { status: 'open', photographer_email: ann.user.email } });
    expect(body.meta).toEqual({ current_user_is_admin: false, current_user_is_api_vendor: false, view_as_photographer_id: null, view_as_photographer: null });

    const adminToken = await signIn(t.app, admin.user.email, admin.password);
    const all = await t.app.inject({ method: 'GET', url: api('/lab_orders'), headers: { token: adminToken } });
    expect(all.json().data.map((d: { attributes: { order_name: string } }) => d.attributes.order_name).sort()).toEqual(['Portfolio', 'Wedding 2026']);
    expect(all.json().meta.current_user_is_admin).toBe(true);
  });
});
