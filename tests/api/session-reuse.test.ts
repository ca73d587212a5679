import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../server/db/schema.ts';
import { ACTOR_CACHE_TTL_MS } from '../../server/http/actor-cache.ts';
import { hashToken } from '../../server/services/auth-service.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

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

const profile = (token: string) => callApi(t.app, 'GET /profile', {}, { token });
const orders = (token: string) => callApi(t.app, 'GET /lab_orders', { query: {} }, { token });
const updateUser = (guid: string, token: string, body: InputOf<Contract['PATCH /users/:guid']>['body']) => callApi(t.app, 'PATCH /users/:guid', { params: { guid }, body }, { token });
async function photographer() {
  const { user, password } = await createUser(t.db);
  return { user, password, token: await signIn(t.app, user.email, password) };
}

describe('a session read a moment ago', () => {
  it('is refused at once once signed out on this process', async () => {
    const me = await photographer();
    expect((await profile(me.token)).status).toBe(200);
    expect((await callApi(t.app, 'DELETE /logout', {}, { token: me.token })).status).toBe(200);
    const after = await profile(me.token);
    expect(after.status).toBe(401);
    expectErrorBody(after.json(), 401);
  });

  it('is refused at once when another session of the account signs out everywhere', async () => {
    const me = await photographer();
    const phone = await signIn(t.app, me.user.email, me.password);
    expect((await orders(phone)).status).toBe(200);
    expect((await callApi(t.app, 'DELETE /logout_all_sessions', {}, { token: me.token })).status).toBe(200);
    expect((await orders(phone)).status).toBe(401);
  });

  it('is refused at once after a password change or an email change ends it', async () => {
    const me = await photographer();
    const laptop = await signIn(t.app, me.user.email, me.password);
    expect((await profile(laptop)).status).toBe(200);
    const change = { password: 'brand-new-pass', password_confirmation: 'brand-new-pass', current_password: me.password };
    expect((await updateUser(me.user.guid, me.token, change)).status).toBe(200);
    expect((await profile(laptop)).status).toBe(401);

    expect((await profile(me.token)).status).toBe(200);
    const email = `moved-${me.user.guid.slice(0, 8)}@studio.example`;
    expect((await callApi(t.app, 'PATCH /update_user_email', { body: { email, password: 'brand-new-pass' } }, { token: me.token })).status).toBe(200);
    expect((await profile(me.token)).status).toBe(401);
  });

  it('the profile reads the user afresh: a change shows at the very next read', async () => {
    const me = await photographer();
    expect((await profile(me.token)).json()).toMatchObject({ user: { first_name: me.user.firstName } });
    expect((await updateUser(me.user.guid, me.token, { first_name: 'Renamed' })).status).toBe(200);
    expect((await profile(me.token)).json()).toMatchObject({ user: { first_name: 'Renamed' } });
  });

  it('ended by another API process: reads accept it for at most two seconds, a change never', async () => {
    const me = await photographer();
    expect((await orders(me.token)).status).toBe(200);
    // What another process's sign-out does: the row goes; this process hears nothing of it.
    await t.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(me.token)));
    const change = await updateUser(me.user.guid, me.token, { first_name: 'Ghost' });
    expect(change.status).toBe(401);
    expect((await t.db.select({ firstName: users.firstName }).from(users).where(eq(users.guid, me.user.guid)))[0]?.firstName).toBe(me.user.firstName);
    // The refused change made this process forget what it kept: the read is refused too.
    expect((await orders(me.token)).status).toBe(401);

    // Without any change on this process, the kept lookup serves reads until it is two seconds old.
    const other = await photographer();
    expect((await orders(other.token)).status).toBe(200);
    await t.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(other.token)));
    const start = t.clock.now;
    try {
      t.clock.now = new Date(start.getTime() + ACTOR_CACHE_TTL_MS - 1);
      expect((await orders(other.token)).status).toBe(200);
      t.clock.now = new Date(start.getTime() + ACTOR_CACHE_TTL_MS);
      expect((await orders(other.token)).status).toBe(401);
    } finally {
      t.clock.now = new Date();
    }
  });
});
