import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

/** /shopify-connect: a shop is linked only with proof from Shopify, or once the photographer confirms it. */
let t: TestApp;
let signed: TestApp;
const SECRET = 'shpss_test_secret_for_the_lab';
beforeAll(async () => {
  t = await createTestApp();
  signed = await createTestApp({ SHOPIFY_API_SECRET: SECRET });
});
afterAll(async () => {
  await t.close();
  await signed.close();
});

async function photographer(app: TestApp) {
  const { user, password } = await createUser(app.db);
  const token = await signIn(app.app, user.email, password);
  const code = (await callApi(app.app, 'GET /profile', {}, { token })).json().shop_connection.code;
  return { user, token, code };
}
async function profileShops(app: TestApp, token: string) {
  const { shops, pending } = (await callApi(app.app, 'GET /profile', {}, { token })).json().shop_connection;
  return { shops, pending };
}
const connect = (app: TestApp, body: InputOf<Contract['POST /shop_connections']>['body']) => callApi(app.app, 'POST /shop_connections', { body });
const confirm = (app: TestApp, id: string, token: string) => callApi(app.app, 'POST /shop_connections/:id/confirm', { params: { id } }, { token });

/** The query string Shopify opens the app page with: its parameters signed with the app's secret. */
function shopifyQuery(params: Record<string, string>, secret = SECRET): string {
  const message = new URLSearchParams(Object.entries(params).sort(([a], [b]) => a.localeCompare(b))).toString();
  const hmac = createHmac('sha256', secret).update(message).digest('hex');
  return new URLSearchParams({ ...params, hmac }).toString();
}
const nowSeconds = () => String(Math.floor(Date.now() / 1000));

describe('without SHOPIFY_API_SECRET: the photographer confirms', () => {
  it('a wrong code or a bad address is refused', async () => {
    expect(expectErrorBody((await connect(t, { code: 'ZZZZ-ZZZZ', shop: 'a.myshopify.com' })).json(), 404).message).toMatch(/^This connection code does not exist/);
    const me = await photographer(t);
    expect((await connect(t, { code: me.code, shop: 'evil.example.com' })).status).toBe(422);
  });

  it('a connection waits for the confirmation and does nothing until then', async () => {
    const me = await photographer(t);
    const res = await connect(t, { code: me.code.toLowerCase(), shop: 'https://North-Light.myshopify.com/admin' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ success: true, shop: 'north-light.myshopify.com', status: 'pending' });
    const before = await profileShops(t, me.token);
    expect(before.shops).toEqual([]);
    expect(before.pending).toEqual([{ id: expect.any(String), shop: 'north-light.myshopify.com', requested_at: expect.any(String) }]);

    const id = before.pending[0]?.id ?? '';
    const other = await photographer(t);
    expect((await confirm(t, id, other.token)).status).toBe(404);
    expect((await callApi(t.app, 'POST /shop_connections/:id/confirm', { params: { id } })).status).toBe(401);

    const ok = await confirm(t, id, me.token);
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ success: true, shop: 'north-light.myshopify.com' });
    expect(await profileShops(t, me.token)).toEqual({ shops: ['north-light.myshopify.com'], pending: [] });
  });

  it("a claim with someone else's code, or on someone else's shop, cannot take the shop", async () => {
    const owner = await photographer(t);
    const squatter = await photographer(t);
    // The squatter claims the shop first, for their own account: it waits and blocks nobody.
    await connect(t, { code: squatter.code, shop: 'lumen.myshopify.com' });
    await connect(t, { code: owner.code, shop: 'lumen.myshopify.com' });
    const ownerPending = (await profileShops(t, owner.token)).pending;
    expect((await confirm(t, ownerPending[0]?.id ?? '', owner.token)).status).toBe(200);
    const squatterPending = (await profileShops(t, squatter.token)).pending;
    const taken = await confirm(t, squatterPending[0]?.id ?? '', squatter.token);
    expect(expectErrorBody(taken.json(), 409).message).toMatch(/already connected to another lab account/);
    expect((await profileShops(t, squatter.token)).shops).toEqual([]);
    // A new claim on a connected shop is refused at once.
    expect((await connect(t, { code: squatter.code, shop: 'lumen.myshopify.com' })).status).toBe(409);
  });

  it('a request the photographer did not make can be declined', async () => {
    const me = await photographer(t);
    await connect(t, { code: me.code, shop: 'stranger.myshopify.com' });
    const [pending] = (await profileShops(t, me.token)).pending;
    const other = await photographer(t);
    expect((await callApi(t.app, 'DELETE /shop_connections/:id', { params: { id: String(pending?.id) } }, { token: other.token })).status).toBe(404);
    const declined = await callApi(t.app, 'DELETE /shop_connections/:id', { params: { id: String(pending?.id) } }, { token: me.token });
    expect(declined.status).toBe(200);
    expect(await profileShops(t, me.token)).toEqual({ shops: [], pending: [] });
  });
});

describe('with SHOPIFY_API_SECRET: the hmac of Shopify proves the shop', () => {
  it('connects at once when the query is signed by Shopify and fresh', async () => {
    const me = await photographer(signed);
    const query = shopifyQuery({ shop: 'darkroom.myshopify.com', timestamp: nowSeconds(), host: 'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvZGFya3Jvb20=' });
    const res = await connect(signed, { code: me.code, shop: 'darkroom.myshopify.com', shopify_query: query });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ success: true, shop: 'darkroom.myshopify.com', status: 'connected' });
    expect(await profileShops(signed, me.token)).toEqual({ shops: ['darkroom.myshopify.com'], pending: [] });
  });

  it('refuses a missing, forged, stale or other-shop signature, and connects nothing', async () => {
    const me = await photographer(signed);
    const shop = 'forged.myshopify.com';
    const fresh = { shop, timestamp: nowSeconds() };
    const refusals = [
      undefined,
      new URLSearchParams(fresh).toString(),
      shopifyQuery(fresh, 'not-the-secret'),
      // The true signature with its first two digits changed (set to '00', they were no change
      // at all for the one signature in 256 that starts so: this test then failed).
      shopifyQuery(fresh).replace(/hmac=([0-9a-f]{2})/, (_, two: string) => `hmac=${two === '00' ? 'ff' : '00'}`),
      shopifyQuery({ shop, timestamp: String(Math.floor(Date.now() / 1000) - 2 * 24 * 60 * 60) }),
      shopifyQuery({ shop, timestamp: String(Math.floor(Date.now() / 1000) + 60 * 60) }),
      shopifyQuery({ shop: 'someone-else.myshopify.com', timestamp: nowSeconds() }),
    ];
    for (const shopify_query of refusals) {
      const res = await connect(signed, { code: me.code, shop, ...(shopify_query === undefined ? {} : { shopify_query }) });
      expect(res.status).toBe(403);
      expect(expectErrorBody(res.json(), 403).message).toMatch(/Open this page from your Shopify admin/);
    }
    expect(await profileShops(signed, me.token)).toEqual({ shops: [], pending: [] });
  });
});
