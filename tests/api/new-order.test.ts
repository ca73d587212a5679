import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders } from '../../server/db/schema.ts';
import { api, createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { callAs, newKey, newOrder, photographer } from './photo-helpers.ts';
import { callApi } from './contract-call.ts';

/** New order (docs/orders.md §2, §5): the name check, creating the order, reading it back. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const TAKEN = 'Order Name already taken. Please create a different Order Name.';

describe('check_unique_order_name', () => {
  it('succeeds when the caller already has that name (any case, spaces trimmed) and is 404 when it is free', async () => {
    const ann = await photographer(t);
    await newOrder(t, ann.token, 'Smith Wedding');
    const taken = await callApi(t.app, 'POST /check_unique_order_name', { body: { order_name: '  smith WEDDING ' } }, { token: ann.token });
    expect(taken.status).toBe(200);
    expect(taken.json()).toEqual({ success: true });
    const free = await callApi(t.app, 'POST /check_unique_order_name', { body: { order_name: 'Jones Portraits' } }, { token: ann.token });
    expect(free.status).toBe(404);
    expectErrorBody(free.json(), 404);
  });

  it("is per photographer: another photographer's name is free for me", async () => {
    const ann = await photographer(t);
    const bob = await photographer(t);
    await newOrder(t, ann.token, 'Harbour at dawn');
    expect((await callApi(t.app, 'POST /check_unique_order_name', { body: { order_name: 'Harbour at dawn' } }, { token: bob.token })).status).toBe(404);
  });

  it('needs a session and a name', async () => {
    const anonymous = await callApi(t.app, 'POST /check_unique_order_name', { body: { order_name: 'x' } });
    expect(anonymous.status).toBe(401);
    expectErrorBody(anonymous.json(), 401);
    const ann = await photographer(t);
    const empty = await callApi(t.app, 'POST /check_unique_order_name', { body: { order_name: '   ' } }, { token: ann.token });
    expect(expectErrorBody(empty.json(), 422).message).toBe('Enter an order name.');
  });
});

describe('POST /lab_orders', () => {
  it('creates an open order of the caller and answers its guid', async () => {
    const ann = await photographer(t);
    const res = await callAs(t.app, 'POST /lab_orders', { body: { order_name: '  Gallery show ' } }, { token: ann.token });
    expect(res.status).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({ type: 'lab_order', attributes: { order_name: 'Gallery show', status: 'open', images: [], photo_count: 0, line_items: [] } });
    expect(data.id).toBe(String(data.attributes.id));
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, data.attributes.guid));
    expect(row?.userGuid).toBe(ann.user.guid);
  });

  it("refuses a name the caller already uses with the spec's message, and creates nothing", async () => {
    const ann = await photographer(t);
    await newOrder(t, ann.token, 'Family 2026');
    const again = await callAs(t.app, 'POST /lab_orders', { body: { order_name: 'FAMILY 2026' } }, { token: ann.token });
    expect(expectErrorBody(again.json(), 422).message).toBe(TAKEN);
    expect(await t.db.select().from(labOrders).where(eq(labOrders.userGuid, ann.user.guid))).toHaveLength(1);
  });

  it('replayed with the same Idempotency-Key answers the first order and creates no second one', async () => {
    const ann = await photographer(t);
    const key = newKey();
    const send = () => t.app.inject({ method: 'POST', url: api('/lab_orders'), payload: { order_name: 'Replayed' }, headers: { token: ann.token, 'idempotency-key': key } });
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().data.attributes.guid).toBe(first.json().data.attributes.guid);
    expect(await t.db.select().from(labOrders).where(eq(labOrders.userGuid, ann.user.guid))).toHaveLength(1);
  });

  it('needs a session', async () => {
    expect((await callAs(t.app, 'POST /lab_orders', { body: { order_name: 'x' } })).status).toBe(401);
  });
});

describe('GET /lab_orders/{guid}', () => {
  it('answers the owner the order with images, line items, included and the list meta', async () => {
    const ann = await photographer(t);
    const guid = await newOrder(t, ann.token, 'Studio session');
    const res = await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid } }, { token: ann.token });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      data: { type: 'lab_order', attributes: { guid, order_name: 'Studio session', status: 'open', images: [], line_items: [], photographer_email: ann.user.email } },
      included: [],
      meta: { current_user_is_admin: false, current_user_is_api_vendor: false },
    });
  });

  it('is 404 for another photographer (and for an unknown or malformed guid), 401 without a session, 200 for an admin', async () => {
    const ann = await photographer(t);
    const bob = await photographer(t);
    const admin = await photographer(t, { isAdmin: true });
    const guid = await newOrder(t, ann.token);
    const other = await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid } }, { token: bob.token });
    expect(other.status).toBe(404);
    expectErrorBody(other.json(), 404);
    expect((await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: '00000000-0000-4000-8000-000000000000' } }, { token: ann.token })).status).toBe(404);
    expect((await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: 'not-a-guid' } }, { token: ann.token })).status).toBe(422);
    expect((await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid } })).status).toBe(401);
    const asAdmin = await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid } }, { token: admin.token });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.json().meta.current_user_is_admin).toBe(true);
    // The owner's guid in capitals is still the owner's order.
    expect((await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: guid.toUpperCase() } }, { token: ann.token })).status).toBe(200);
  });
});

describe('the API document', () => {
  it('describes every call of the upload contract', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: api('/openapi.json') })).json();
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/check_unique_order_name',
      '/lab_orders/{guid}',
      '/lab_orders/{guid}/lab_order_photographs',
      '/lab_orders/{guid}/photographs/{photoGuid}',
      '/lab_orders/{guid}/create_presigned_url',
      '/lab_orders/{guid}/complete_upload',
      '/lab_orders/{guid}/photograph_uploaded',
    ]) {
      expect(paths).toContain(api(path));
    }
    expect(doc.paths[api('/lab_orders')].post.requestBody).toBeDefined();
    expect(doc.paths[api('/lab_orders/{guid}/create_presigned_url')].post.requestBody.content['application/json'].schema.anyOf).toHaveLength(3);
  });
});
