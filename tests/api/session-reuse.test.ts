import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../server/db/schema.ts';
import { ACTOR_CACHE_TTL_MS } from '../../server/http/actor-cache.ts';
import { hashToken } from '../../server/services/auth-service.ts';
import { api, createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

/**
 * Reads reuse a session lookup made by this process in the last two seconds (server/http/
 * actor-cache.ts). Each case first reads with the session, so the lookup is kept, then changes
 * something: the next call must see the change at once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (method: 'GET' | 'PATCH' | 'DELETE', path: string, token: string, payload?: object) =>
  t.app.inject({ method, url: api(path), headers: { token }, ...(payload ? { payload } : {}) });
async function photographer() {
  const { user, password } = await createUser(t.db);
  return { user, password, token: await signIn(t.app, user.email, password) };
}

describe('a session read a moment ago', () => {
  it('is refused at once once signed out on this process', async () => {
    const me = await photographer();
    expect((await call('GET', '/profile', me.token)).statusCode).toBe(200);
    expect((await call('DELETE', '/logout', me.token)).statusCode).toBe(200);
    const after = await call('GET', '/profile', me.token);
    expect(after.statusCode).toBe(401);
    expectErrorBody(after.json(), 401);
  });

  it('is refused at once when another session of the account signs out everywhere', async () => {
    const me = await photographer();
    const phone = await signIn(t.app, me.user.email, me.password);
    expect((await call('GET', '/lab_orders', phone)).statusCode).toBe(200);
    expect((await call('DELETE', '/logout_all_sessions', me.token)).statusCode).toBe(200);
    expect((await call('GET', '/lab_orders', phone)).statusCode).toBe(401);
  });

  it('is refused at once after a password change or an email change ends it', async () => {
    const me = await photographer();
    const laptop = await signIn(t.app, me.user.email, me.password);
    expect((await call('GET', '/profile', laptop)).statusCode).toBe(200);
    const change = { password: 'brand-new-pass', password_confirmation: 'brand-new-pass', current_password: me.password };
    expect((await call('PATCH', `/users/${me.user.guid}`, me.token, change)).statusCode).toBe(200);
    expect((await call('GET', '/profile', laptop)).statusCode).toBe(401);

    expect((await call('GET', '/profile', me.token)).statusCode).toBe(200);
    const email = `moved-${me.user.guid.slice(0, 8)}@studio.example`;
    expect((await call('PATCH', '/update_user_email', me.token, { email, password: 'brand-new-pass' })).statusCode).toBe(200);
    expect((await call('GET', '/profile', me.token)).statusCode).toBe(401);
  });

  it('the profile reads the user afresh: a change shows at the very next read', async () => {
    const me = await photographer();
    expect((await call('GET', '/profile', me.token)).json()).toMatchObject({ user: { first_name: me.user.firstName } });
    expect((await call('PATCH', `/users/${me.user.guid}`, me.token, { first_name: 'Renamed' })).statusCode).toBe(200);
    expect((await call('GET', '/profile', me.token)).json()).toMatchObject({ user: { first_name: 'Renamed' } });
  });

  it('ended by another API process: reads accept it for at most two seconds, a change never', async () => {
    const me = await photographer();
    expect((await call('GET', '/lab_orders', me.token)).statusCode).toBe(200);
    // What another process's sign-out does: the row goes; this process hears nothing of it.
    await t.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(me.token)));
    const change = await call('PATCH', `/users/${me.user.guid}`, me.token, { first_name: 'Ghost' });
    expect(change.statusCode).toBe(401);
    expect((await t.db.select({ firstName: users.firstName }).from(users).where(eq(users.guid, me.user.guid)))[0]?.firstName).toBe(me.user.firstName);
    // The refused change made this process forget what it kept: the read is refused too.
    expect((await call('GET', '/lab_orders', me.token)).statusCode).toBe(401);

    // Without any change on this process, the kept lookup serves reads until it is two seconds old.
    const other = await photographer();
    expect((await call('GET', '/lab_orders', other.token)).statusCode).toBe(200);
    await t.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(other.token)));
    const start = t.clock.now;
    try {
      t.clock.now = new Date(start.getTime() + ACTOR_CACHE_TTL_MS - 1);
      expect((await call('GET', '/lab_orders', other.token)).statusCode).toBe(200);
      t.clock.now = new Date(start.getTime() + ACTOR_CACHE_TTL_MS);
      expect((await call('GET', '/lab_orders', other.token)).statusCode).toBe(401);
    } finally {
      t.clock.now = new Date();
    }
  });
});
