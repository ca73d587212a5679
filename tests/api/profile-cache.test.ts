/**
 * The profile's answer is kept in memory under the account's version (server/services/
 * profile-cache.ts; deferred triggers write it at the commit of any change, migration
 * 0027_account_versions). These tests hold the kept answer against the answer built afresh
 * (account-service.ts's profile, shaped by the route's schema) across every kind of change the
 * profile shows: the user, addresses, cards, shops, tax reports, referrals both ways, deletes,
 * rolled-back transactions and truncation.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountVersions, addresses, cards, shopConnections, taxReports, users } from '../../server/db/schema.ts';
import type { ServerDeps } from '../../server/deps.ts';
import { profileSchema as profileShape } from '../../src/contract/account.ts';
import { profile } from '../../server/services/account-service.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, signIn, type TestApp } from './helper.ts';

let t: TestApp;
let me: Awaited<ReturnType<typeof createUser>>;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  me = await createUser(t.db, { firstName: 'Kept', lastName: 'Profile' });
  token = await signIn(t.app, me.user.email, me.password);
});
afterAll(() => t.close());

async function answered(): Promise<string> {
  const res = await callApi(t.app, 'GET /profile', {}, { token });
  expect(res.status).toBe(200);
  expect(res.response.headers['content-type']).toBe('application/json; charset=utf-8');
  return res.response.body;
}

/** The answer as kept (read twice: the second read is the kept one) is the answer built afresh, byte for byte. */
async function expectKeptFresh(): Promise<unknown> {
  const first = await answered();
  const again = await answered();
  const [user] = await t.db.select().from(users).where(eq(users.guid, me.user.guid));
  if (!user) throw new Error('no user');
  const deps = { db: t.db, storage: t.storage, now: () => t.clock.now } as unknown as ServerDeps;
  const fresh = JSON.stringify(profileShape.parse(await profile(deps, { user, sessionId: 'fresh' })));
  expect(again).toBe(first);
  expect(first).toBe(fresh);
  return JSON.parse(first);
}

const version = async (guid = me.user.guid) => (await t.db.select({ v: accountVersions.version }).from(accountVersions).where(eq(accountVersions.userGuid, guid)))[0]?.v ?? null;

describe('the kept profile', () => {
  it('keeps its version through what no profile shows: a refused email change, a wrong then a right password', async () => {
    const before = await version();
    const changeEmail = (email: string, password: string) => callApi(t.app, 'PATCH /update_user_email', { body: { email, password } }, { token });
    const refused = await changeEmail("' OR '1'='1", me.password);
    expect(refused.status).toBe(422);
    const wrong = await changeEmail('kept@example.com', 'not-the-password');
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect((await changeEmail("' OR '1'='1", me.password)).status).toBe(422);
    expect(await version()).toBe(before);
  });

  it('gets a new version with each committed change of what it shows, none with a rolled-back one', async () => {
    await expectKeptFresh();
    const v1 = await version();
    expect(v1).not.toBeNull();

    await t.db.update(users).set({ businessName: 'Kept Studio' }).where(eq(users.guid, me.user.guid));
    expect(await version()).not.toBe(v1);
    expect(await expectKeptFresh()).toMatchObject({ user: { business_name: 'Kept Studio' } });

    const [address] = await t.db.insert(addresses).values({ userGuid: me.user.guid, street: '1 Main St', city: 'Nashville', state: 'TN', zip: '37201' }).returning();
    expect(await expectKeptFresh()).toMatchObject({ addresses: { data: [{ street: '1 Main St' }] } });
    await t.db.update(users).set({ defaultAddressGuid: address?.guid ?? null }).where(eq(users.guid, me.user.guid));
    expect(await expectKeptFresh()).toMatchObject({ default_address: address?.guid });

    const [card] = await t.db.insert(cards).values({ userGuid: me.user.guid, provider: 'sandbox', providerCardId: 'pm_1', brand: 'visa', last4: '4242' }).returning();
    expect(await expectKeptFresh()).toMatchObject({ cards: { data: [{ id: card?.id }] } });
    await t.db.update(cards).set({ kept: false }).where(eq(cards.userGuid, me.user.guid));
    expect(await expectKeptFresh()).toMatchObject({ cards: { data: [] } });

    await t.db.insert(shopConnections).values({ userGuid: me.user.guid, shopDomain: 'kept.myshopify.com' });
    expect(await expectKeptFresh()).toMatchObject({ shop_connection: { pending: [{ shop: 'kept.myshopify.com' }] } });

    await t.db.insert(taxReports).values({ userGuid: me.user.guid, year: t.clock.now.getUTCFullYear(), status: 'generating' });
    await expectKeptFresh();
    await t.db.update(taxReports).set({ status: 'failed' }).where(eq(taxReports.userGuid, me.user.guid));
    await expectKeptFresh();

    await t.db.delete(addresses).where(eq(addresses.userGuid, me.user.guid));
    expect(await expectKeptFresh()).toMatchObject({ addresses: { data: [] } });

    const before = await version();
    await expect(
      t.db.transaction(async (tx) => {
        await tx.update(users).set({ firstName: 'Never seen' }).where(eq(users.guid, me.user.guid));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await version()).toBe(before);
    expect(await expectKeptFresh()).toMatchObject({ user: { first_name: 'Kept' } });
  });

  it('shows whom the photographer referred and who referred them, as those accounts change', async () => {
    const referred = await createUser(t.db, { referredByGuid: me.user.guid });
    expect(await expectKeptFresh()).toMatchObject({ user: { referred_users: 1, referred_by_email: null } });
    await t.db.delete(users).where(eq(users.guid, referred.user.guid));
    expect(await expectKeptFresh()).toMatchObject({ user: { referred_users: 0 } });

    const referrer = await createUser(t.db);
    await t.db.update(users).set({ referredByGuid: referrer.user.guid }).where(eq(users.guid, me.user.guid));
    expect(await expectKeptFresh()).toMatchObject({ user: { referred_by_email: referrer.user.email } });
    // The referrer's new email is shown on this profile, though this account did not change.
    await t.db.update(users).set({ email: 'new-referrer@example.com' }).where(eq(users.guid, referrer.user.guid));
    expect(await expectKeptFresh()).toMatchObject({ user: { referred_by_email: 'new-referrer@example.com' } });
    await t.db.delete(users).where(eq(users.guid, referrer.user.guid));
    expect(await expectKeptFresh()).toMatchObject({ user: { referred_by_email: null } });
  });

  it('changed through the API shows the change on the next read', async () => {
    await expectKeptFresh();
    const res = await callApi(t.app, 'PATCH /users/:guid', { params: { guid: me.user.guid }, body: { first_name: 'Changed' } }, { token });
    expect(res.status).toBe(200);
    expect(await expectKeptFresh()).toMatchObject({ user: { first_name: 'Changed' } });
  });

  it('starts again after a truncate (no version, nothing kept is answered)', async () => {
    await expectKeptFresh();
    await t.db.execute(sql`truncate ${addresses}`);
    expect(await version()).toBeNull();
    await expectKeptFresh();
    await t.db.insert(addresses).values({ userGuid: me.user.guid, street: '2 Side St', city: 'Memphis', state: 'TN', zip: '38103' });
    expect(await version()).not.toBeNull();
    expect(await expectKeptFresh()).toMatchObject({ addresses: { data: [{ street: '2 Side St' }] } });
  });
});
