import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestApp, expectErrorBody, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // A route that crashes, as an unexpected bug would.
  t.app.get(api('/test-crash'), () => {
    throw new Error('secret internal detail at /srv/app/db.ts:42');
  });
});
afterAll(() => t.close());

describe('every error answers with the error body', () => {
  it('an unknown API route: 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: api('/no-such-thing') });
    expect(res.statusCode).toBe(404);
    expect(expectErrorBody(res.json(), 404).class_name).toBe('NotFound');
    const post = await t.app.inject({ method: 'POST', url: api('/no-such-thing'), payload: {} });
    expect(post.statusCode).toBe(404);
    expectErrorBody(post.json(), 404);
  });

  it('malformed JSON: 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: api('/login'), headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res.json(), 400).message).toBe('The request body is not valid JSON.');
  });

  it('an oversized body: 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: api('/login'),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(expectErrorBody(res.json(), 413).class_name).toBe('PayloadTooLarge');
  });

  it('a body that is not JSON: 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: api('/login'), headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    expect(res.statusCode).toBe(415);
    expectErrorBody(res.json(), 415);
  });

  it('a crash: 500 without the stack or the internal message', async () => {
    const res = await t.app.inject({ method: 'GET', url: api('/test-crash') });
    expect(res.statusCode).toBe(500);
    expect(expectErrorBody(res.json(), 500).class_name).toBe('InternalServerError');
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('.ts:');
  });
});

describe('headers and documents', () => {
  it('sets security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: api('/status') });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('serves the OpenAPI document of the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: api('/openapi.json') });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([api('/login'), api('/status'), api('/logout'), api('/lab_orders')]));
    expect(doc.paths[api('/login')].post.requestBody).toBeDefined();
  });
});
