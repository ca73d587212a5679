import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../server/db/schema.ts';
import { LOGIN_LOCKOUT_MS, MAX_FAILED_LOGINS, SESSION_TTL_MS, hashToken } from '../../server/services/auth-service.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
const later = (ms: number) => new Date(Date.now() + ms);

describe('POST /login', () => {
  it('answers the session fields and stores only a hash of the token', async () => {
    const { user, password } = await createUser(t.db, { businessName: 'Light Works' });
    const res = await callApi(t.app, 'POST /login', { body: { email: user.email.toUpperCase(), password } });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ email: user.email, name: `${user.firstName} ${user.lastName}`, business_name: 'Light Works', is_admin: false });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.intercom_user_hash).toMatch(/^[0-9a-f]{64}$/);
    const stored = await t.db.select().from(sessions);
    expect(stored.some((s) => s.tokenHash === hashToken(body.token))).toBe(true);
    expect(stored.some((s) => s.tokenHash === body.token)).toBe(false);
  });

  it('signs the identity hash with INTERCOM_SECRET when one is configured', async () => {
    const other = await createTestApp({ INTERCOM_SECRET: 'chat-secret' });
    try {
      const { user, password } = await createUser(other.db);
      const res = await callApi(other.app, 'POST /login', { body: { email: user.email, password } });
      const { createHmac } = await import('node:crypto');
      expect(res.json().intercom_user_hash).toBe(createHmac('sha256', 'chat-secret').update(user.email).digest('hex'));
    } finally {
      await other.close();
    }
  });

  it('refuses a wrong password and an unknown email alike with 401', async () => {
    const { user } = await createUser(t.db);
    for (const payload of [
      { email: user.email, password: 'not-the-password' },
      { email: 'nobody@example.com', password: 'whatever-it-is' },
    ]) {
      const res = await callApi(t.app, 'POST /login', { body: payload }, { remoteAddress: '10.0.0.1' });
      expect(res.status).toBe(401);
      const e = expectErrorBody(res.json(), 401);
      expect(e.class_name).toBe('InvalidCredentials');
    }
  });

  it('answers 422 with the error body when a field is missing', async () => {
    // No password: a body outside the contract on purpose.
    const res = await callApi(t.app, 'POST /login', { body: { email: 'a@example.com' } as { email: string; password: string } }, { remoteAddress: '10.0.0.2' });
    expect(res.status).toBe(422);
    expect(expectErrorBody(res.json(), 422).class_name).toBe('ValidationError');
  });

  it('locks an account after repeated failures, from any address, until the window passes', async () => {
    const { user, password } = await createUser(t.db);
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      const res = await callApi(t.app, 'POST /login', { body: { email: user.email, password: 'wrong-password' } }, { remoteAddress: `10.1.0.${i}` });
      expect(res.status).toBe(401);
    }
    const locked = await callApi(t.app, 'POST /login', { body: { email: user.email, password } }, { remoteAddress: '10.1.1.1' });
    expect(locked.status).toBe(429);
    expect(expectErrorBody(locked.json(), 429).message).toMatch(/Too many failed sign-in attempts/);
    t.clock.now = later(LOGIN_LOCKOUT_MS + 1000);
    try {
      const ok = await callApi(t.app, 'POST /login', { body: { email: user.email, password } }, { remoteAddress: '10.1.1.2' });
      expect(ok.status).toBe(200);
    } finally {
      t.clock.now = new Date();
    }
  });

  it('limits sign-in attempts per address (LOGIN_RATE_LIMIT, 10 by default)', async () => {
    const limited = await createTestApp({ LOGIN_RATE_LIMIT: '10' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await callApi(limited.app, 'POST /login', { body: { email: 'x@example.com', password: 'wrong-password' } }, { remoteAddress: '10.9.9.9' });
      statuses.push(res.status);
    }
    await limited.close();
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe('sessions', () => {
  it('a token works, slides its expiry on use, and ends 30 days after the last use', async () => {
    const { user, password } = await createUser(t.db);
    const token = await signIn(t.app, user.email, password);
    const list = () => callApi(t.app, 'GET /lab_orders', { query: {} }, { token });
    expect((await list()).status).toBe(200);
    try {
      t.clock.now = later(20 * DAY);
      expect((await list()).status).toBe(200);
      t.clock.now = later(20 * DAY + SESSION_TTL_MS - DAY);
      expect((await list()).status).toBe(200);
      t.clock.now = later(20 * DAY + 2 * SESSION_TTL_MS);
      const expired = await list();
      expect(expired.status).toBe(401);
      expectErrorBody(expired.json(), 401);
    } finally {
      t.clock.now = new Date();
    }
  });

  it('an unknown or missing token answers 401 with the error body', async () => {
    for (const token of [undefined, 'made-up-token']) {
      const res = await callApi(t.app, 'GET /lab_orders', { query: {} }, { token });
      expect(res.status).toBe(401);
      expectErrorBody(res.json(), 401);
    }
  });

  it('DELETE /logout ends only this session', async () => {
    const { user, password } = await createUser(t.db);
    const a = await signIn(t.app, user.email, password);
    const b = await signIn(t.app, user.email, password);
    const out = await callApi(t.app, 'DELETE /logout', {}, { token: a });
    expect(out.status).toBe(200);
    expect((await callApi(t.app, 'GET /lab_orders', { query: {} }, { token: a })).status).toBe(401);
    expect((await callApi(t.app, 'GET /lab_orders', { query: {} }, { token: b })).status).toBe(200);
    expect((await callApi(t.app, 'DELETE /logout', {}, { token: a })).status).toBe(401);
  });

  it('DELETE /logout_all_sessions ends every session of the user and no one else', async () => {
    const { user, password } = await createUser(t.db);
    const other = await createUser(t.db);
    const a = await signIn(t.app, user.email, password);
    const b = await signIn(t.app, user.email, password);
    const c = await signIn(t.app, other.user.email, other.password);
    expect((await callApi(t.app, 'DELETE /logout_all_sessions', {}, { token: a })).status).toBe(200);
    for (const token of [a, b]) {
      expect((await callApi(t.app, 'GET /lab_orders', { query: {} }, { token })).status).toBe(401);
    }
    expect((await callApi(t.app, 'GET /lab_orders', { query: {} }, { token: c })).status).toBe(200);
  });
});

describe('GET /status', () => {
  it('reports the server and its database as up', async () => {
    const res = await callApi(t.app, 'GET /status', {});
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok', version: expect.any(String) });
  });
});
