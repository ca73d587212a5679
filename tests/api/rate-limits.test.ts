import { sandboxPayments } from '../../server/adapters/payments/sandbox-payments.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { rateLimitHits, sessions } from '../../server/db/schema.ts';
import { countHit } from '../../server/http/rate-limit-store.ts';
import { runHousekeeping } from '../../server/job-workers.ts';
import { api, createTestApp, createUser, type TestApp } from './helper.ts';

const MINUTE = 60_000;

describe('rate limits kept in the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '3' });
  });
  afterAll(() => t.close());

  it('counts hits per call and address, and starts a new window when the last one has ended', async () => {
    const start = new Date('2027-03-01T10:00:00Z');
    const hit = (key: string, at: Date) => countHit(t.db, 'POST /api/v2/login', key, MINUTE, at);
    expect(await hit('10.0.0.1', start)).toEqual({ current: 1, ttl: MINUTE });
    expect(await hit('10.0.0.1', new Date(start.getTime() + 20_000))).toEqual({ current: 2, ttl: 40_000 });
    // Another address, and the same address on another call, count on their own.
    expect((await hit('10.0.0.2', start)).current).toBe(1);
    expect((await countHit(t.db, 'POST /api/v2/users', '10.0.0.1', MINUTE, start)).current).toBe(1);
    // After the window: a fresh count, with a full window.
    expect(await hit('10.0.0.1', new Date(start.getTime() + MINUTE + 1))).toEqual({ current: 1, ttl: MINUTE });
  });

  it('answers 429 with the error body once an address passes the limit of a call', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({ method: 'POST', url: api('/login'), payload: { email: 'nobody@example.com', password: 'wrong-password' } });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const rows = await t.db.select().from(rateLimitHits).where(and(eq(rateLimitHits.bucket, 'POST /api/v2/login'), eq(rateLimitHits.key, '127.0.0.1')));
    expect(rows.map((r) => r.count)).toEqual([4]);
  });

  it('housekeeping sweeps ended windows and expired sessions, and keeps the rest', async () => {
    const { user } = await createUser(t.db);
    const now = new Date();
    await countHit(t.db, 'sweep', 'ended', MINUTE, new Date(now.getTime() - 2 * MINUTE));
    await countHit(t.db, 'sweep', 'running', MINUTE, now);
    const session = (tokenHash: string, expiresAt: Date) => ({ tokenHash, userGuid: user.guid, expiresAt });
    await t.db.insert(sessions).values([session('live', new Date(now.getTime() + MINUTE)), session('expired', new Date(now.getTime() - MINUTE))]);
    const mailer = { send: async () => '', sendPending: async () => 0, queue: async () => '', deliver: async () => false };
    const deps = { db: t.db, config: t.config, storage: t.storage, appSecret: 'x', now: () => now, mailer, payments: sandboxPayments(t.db) };
    await runHousekeeping(deps as unknown as Parameters<typeof runHousekeeping>[0]);
    const left = await t.db.select({ key: rateLimitHits.key }).from(rateLimitHits).where(eq(rateLimitHits.bucket, 'sweep'));
    expect(left.map((r) => r.key)).toEqual(['running']);
    const kept = await t.db.select({ tokenHash: sessions.tokenHash }).from(sessions).where(eq(sessions.userGuid, user.guid));
    expect(kept).toEqual([{ tokenHash: 'live' }]);
  });
});

describe('the caller behind a load balancer (TRUST_PROXY=true)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '2', TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  it('counts the address the balancer saw, whatever the caller wrote before it in X-Forwarded-For', async () => {
    const login = (forwarded: string) =>
      t.app.inject({ method: 'POST', url: api('/login'), headers: { 'x-forwarded-for': forwarded }, payload: { email: 'nobody@example.com', password: 'wrong-password' } });
    // The caller makes up a new first entry each time; the balancer appends what it saw.
    const statuses = [];
    for (let i = 1; i <= 3; i++) statuses.push((await login(`6.6.6.${i}, 203.0.113.9`)).statusCode);
    expect(statuses).toEqual([401, 401, 429]);
    // Another caller behind the same balancer has a count of its own.
    expect((await login('203.0.113.10')).statusCode).toBe(401);
  });
});

