import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders } from '../../server/db/schema.ts';
import { api, createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t.db, { isAdmin: true });
  token = await signIn(t.app, admin.user.email, admin.password);
  // Enough orders that the list answer is well above the compression threshold.
  await t.db.insert(labOrders).values(Array.from({ length: 40 }, (_, i) => ({ userGuid: admin.user.guid, orderName: `Wedding ${i}` })));
});
afterAll(() => t.close());

/** The body as the client reads it, whatever coding it came in. */
function decoded(res: LightMyRequestResponse): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.rawPayload).toString();
  if (coding === 'gzip') return gunzipSync(res.rawPayload).toString();
  expect(coding).toBeUndefined();
  return res.body;
}

describe('API answers are compressed by negotiation', () => {
  it('sends brotli or gzip as the caller accepts, the same JSON either way, with Vary', async () => {
    const get = (acceptEncoding?: string) =>
      t.app.inject({ method: 'GET', url: api('/lab_orders'), headers: { token, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } });
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['identity', undefined],
      ['deflate', undefined],
    ] as const) {
      const res = await get(accept);
      expect([accept, res.statusCode, res.headers['content-encoding']]).toEqual([accept, 200, coding]);
      // Compressed answers vary by Accept-Encoding and are a fraction of the size.
      expect([accept, Boolean(coding) && String(res.headers.vary).includes('accept-encoding')]).toEqual([accept, Boolean(coding)]);
      expect([accept, res.rawPayload.length < plain.rawPayload.length / 3]).toEqual([accept, Boolean(coding)]);
      expect(JSON.parse(decoded(res))).toEqual(plain.json());
    }
  });

  it('leaves small answers as they are', async () => {
    const res = await t.app.inject({ method: 'GET', url: api('/status'), headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ status: 'ok' });
  });

  it('keeps error bodies readable, compressed or not', async () => {
    const requests = [
      { method: 'GET' as const, url: api('/no-such-call') },
      { method: 'GET' as const, url: api('/lab_orders') },
      { method: 'POST' as const, url: api('/price_quote'), payload: { print_size: 'nope', quantity: 0, finishing_service_details: ['a', 'b', 'c', 'd', 'e'] } },
      { method: 'POST' as const, url: api('/login'), payload: '{"email":', headers: { 'content-type': 'application/json' } },
    ];
    for (const request of requests) {
      const res = await t.app.inject({ ...request, headers: { ...request.headers, 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expectErrorBody(JSON.parse(decoded(res)), res.statusCode);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers HEAD without a body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: api('/openapi.json'), headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  it('streams stored files as they are: no compression of photos, PDFs or reports', async () => {
    const csv = Buffer.from('order,total\n'.repeat(500));
    await t.storage.put('reports/test.csv', csv, 'text/csv');
    const url = await t.storage.presignGet('reports/test.csv', { expiresInSeconds: 60 });
    const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.equals(csv)).toBe(true);
  });
});

describe('no HTTP cache keeps an API answer', () => {
  it('marks signed-in answers, sign-in answers and errors no-store', async () => {
    const admin = await createUser(t.db, { isAdmin: true });
    const login = await t.app.inject({ method: 'POST', url: api('/login'), payload: { email: admin.user.email, password: admin.password } });
    expect(login.headers['cache-control']).toBe('no-store');
    for (const path of ['/lab_orders', '/profile', '/status', '/client_version']) {
      const res = await t.app.inject({ method: 'GET', url: api(path), headers: { token } });
      expect([path, res.headers['cache-control']]).toEqual([path, 'no-store']);
    }
    const refused = await t.app.inject({ method: 'GET', url: api('/profile') });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });
});
