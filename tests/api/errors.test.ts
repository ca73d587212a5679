import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, createTestApp, expectErrorBody, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // A route that crashes, as an unexpected bug would.
  t.app.get(api('/test-crash'), { config: { public: true } }, () => {
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

  it('a malformed address: 400, not the router\'s own body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/%ZZ' });
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res.json(), 400).class_name).toBe('BadRequest');
    expect(res.body).not.toContain('FST_ERR');
  });

  it('a path parameter longer than any id: 414 with the error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: api(`/photographers/${'a'.repeat(101)}`) });
    expect(res.statusCode).toBe(414);
    expect(expectErrorBody(res.json(), 414).class_name).toBe('UriTooLong');
    expect(res.body).not.toContain('FST_ERR');
  });

  it('OPTIONS, an unknown method, HEAD and a poisoned prototype', async () => {
    for (const method of ['OPTIONS', 'PROPFIND', 'TRACE'] as const) {
      const res = await t.app.inject({ method, url: api('/login') });
      expect([method, res.statusCode]).toEqual([method, 404]);
      expectErrorBody(res.json(), 404);
    }
    const head = await t.app.inject({ method: 'HEAD', url: api('/no-such-thing') });
    expect(head.statusCode).toBe(404);
    expect(head.headers['content-type']).toMatch(/^application\/json/);
    const poisoned = await t.app.inject({ method: 'POST', url: api('/login'), headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"admin":true}}' });
    expect(poisoned.statusCode).toBe(400);
    expectErrorBody(poisoned.json(), 400);
  });

  it('a request HTTP itself cannot parse, on a real socket: 400 with the error body', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
      socket.write('GET /api/v2/status HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    expect(expectErrorBody(JSON.parse(body), 400).class_name).toBe('BadRequest');
  });

  it('a request arriving while the server closes: 503 with the error body', async () => {
    const closing = await createTestApp();
    let release = () => {};
    let started = () => {};
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    closing.app.get(api('/test-slow'), { config: { public: true } }, async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      return { done: true };
    });
    const { port } = new URL(await closing.app.listen({ port: 0, host: '127.0.0.1' }));
    const socket = connect(Number(port), '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /api/v2/test-slow HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    await handlerStarted;
    // The connection is busy, so close() keeps it; the next request on it arrives while closing.
    const closed = closing.app.close();
    await vi.waitFor(() => expect(closing.app.server.listening).toBe(false));
    // Written out (on loopback: in the server's socket, read once the first answer is sent).
    await new Promise<void>((resolve, reject) => socket.write('GET /api/v2/status HTTP/1.1\r\nHost: x\r\n\r\n', (err) => (err ? reject(err) : resolve())));
    release();
    await ended;
    await closed;
    await closing.close();
    const second = data.slice(data.indexOf('HTTP/1.1', 1));
    expect(data).toMatch(/^HTTP\/1\.1 200/);
    expect(second).toMatch(/^HTTP\/1\.1 503/);
    const body = second.slice(second.indexOf('\r\n\r\n') + 4);
    expect(expectErrorBody(JSON.parse(body), 503).class_name).toBe('ServiceUnavailable');
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
