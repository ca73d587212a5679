import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR_CACHE_TTL_MS } from '../../server/http/actor-cache.ts';
import { HOUSEKEEPING } from '../../server/job-workers.ts';
import { MAX_FAILED_LOGINS } from '../../server/services/auth-service.ts';
import { hashPassword } from '../../server/services/passwords.ts';
import { PRESERVE_LINKS, productionInstall } from './production-install.ts';
import { freePort, scratchPostgres, startServer, type ServerProcess } from './server-process.ts';

/**
 * Two real API processes on one PostgreSQL, as a lab behind a load balancer runs them: sessions,
 * rate limits, lockouts and the housekeeping schedule hold across both (docs/lab-rules.md §1). Both are
 * the compiled server of a production install, run with plain node, as a lab runs it.
 * Needs PostgreSQL: PGlite is one process's own database. In `npm test` it runs in the
 * PostgreSQL pass only.
 */
const url = process.env.TEST_DATABASE_URL;
const hasPostgres = Boolean(url) && process.env.API_TEST_DATABASE !== 'pglite';
// Low, so the test reaches it in a few calls; per minute, as in production.
const LOGIN_LIMIT = 4;

describe.skipIf(!hasPostgres)('several API processes on one PostgreSQL (skipped: set TEST_DATABASE_URL to run)', () => {
  let database: Awaited<ReturnType<typeof scratchPostgres>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let portA = 0;
  let portB = 0;
  let sql: pg.Client;
  let install: Awaited<ReturnType<typeof productionInstall>>;

  beforeAll(async () => {
    install = await productionInstall({ client: false });
    database = await scratchPostgres('lab_multi');
    [portA, portB] = [await freePort(), await freePort()];
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: '/nonexistent',
      ADMIN_EMAIL: 'owner@lab.example',
      ADMIN_PASSWORD: 'owner-password',
      LOGIN_RATE_LIMIT: String(LOGIN_LIMIT),
      // Each test call names its own address, as a load balancer does in X-Forwarded-For.
      TRUST_PROXY: 'true',
      // Info lines show each housekeeping run.
      LOG_LEVEL: 'info',
      NODE_OPTIONS: PRESERVE_LINKS,
    };
    const compiled = { args: ['dist-server/main.js'], cwd: install.dir };
    // Started together, as after a deploy: migrations and first-start rows must not race.
    a = startServer({ ...env, PORT: String(portA) }, compiled);
    b = startServer({ ...env, PORT: String(portB) }, compiled);
    await Promise.all([a.ready(), b.ready()]);
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  }, 90_000);

  afterAll(async () => {
    await sql?.end();
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    install?.remove();
  }, 30_000);

  const call = (port: number, method: string, path: string, opts: { from: string; token?: string; body?: unknown }) =>
    fetch(`http://127.0.0.1:${port}/api/v2${path}`, {
      method,
      headers: {
        'x-forwarded-for': opts.from,
        ...(opts.token ? { token: opts.token } : {}),
        ...(opts.body ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body ? JSON.stringify(opts.body) : null,
    });
  const login = (port: number, from: string, email: string, password: string) => call(port, 'POST', '/login', { from, body: { email, password } });

  it('ran each migration once, though both started together on the fresh database', async () => {
    const journal = JSON.parse(readFileSync('server/db/migrations/meta/_journal.json', 'utf8')) as { entries: unknown[] };
    const ran = await sql.query('SELECT count(*)::int AS n, count(DISTINCT hash)::int AS distinct_n FROM drizzle.__drizzle_migrations');
    expect(ran.rows[0]).toEqual({ n: journal.entries.length, distinct_n: journal.entries.length });
    for (const server of [a, b]) expect(server.err()).not.toMatch(/already exists|could not start/);
  });

  it('made the first admin and the default catalogue once, though both started together', async () => {
    const admins = await sql.query("SELECT count(*)::int AS n FROM users WHERE is_admin");
    expect(admins.rows[0].n).toBe(1);
    const catalogues = await sql.query('SELECT count(*)::int AS n FROM catalogues');
    expect(catalogues.rows[0].n).toBe(1);
  });

  it('a session made on one process works on the other, and ends on both', async () => {
    const res = await login(portA, '198.51.100.1', 'owner@lab.example', 'owner-password');
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    expect((await call(portB, 'GET', '/lab_orders', { from: '198.51.100.1', token })).status).toBe(200);
    expect((await call(portB, 'DELETE', '/logout', { from: '198.51.100.1', token })).status).toBe(200);
    expect((await call(portA, 'GET', '/lab_orders', { from: '198.51.100.1', token })).status).toBe(401);
  });

  it('a session ended on one process: the other refuses it for reads within two seconds, for changes at once', async () => {
    const res = await login(portA, '198.51.100.7', 'owner@lab.example', 'owner-password');
    const { token, guid } = (await res.json()) as { token: string; guid: string };
    // Read on A, so A keeps the lookup (server/http/actor-cache.ts); then signed out through B.
    expect((await call(portA, 'GET', '/lab_orders', { from: '198.51.100.7', token })).status).toBe(200);
    expect((await call(portB, 'DELETE', '/logout', { from: '198.51.100.7', token })).status).toBe(200);
    const ended = Date.now();
    await expect
      .poll(async () => (await call(portA, 'GET', '/lab_orders', { from: '198.51.100.7', token })).status, { timeout: ACTOR_CACHE_TTL_MS + 3_000, interval: 100 })
      .toBe(401);
    // The request that saw 401 left at most one poll (and a busy machine's delay) after the window.
    expect(Date.now() - ended).toBeLessThan(ACTOR_CACHE_TTL_MS + 1_500);

    // A change is checked against the database at once, whatever A kept.
    const again = (await (await login(portA, '198.51.100.7', 'owner@lab.example', 'owner-password')).json()) as { token: string };
    expect((await call(portA, 'GET', '/lab_orders', { from: '198.51.100.7', token: again.token })).status).toBe(200);
    expect((await call(portB, 'DELETE', '/logout', { from: '198.51.100.7', token: again.token })).status).toBe(200);
    const change = await call(portA, 'PATCH', `/users/${guid}`, { from: '198.51.100.7', token: again.token, body: { first_name: 'Ghost' } });
    expect(change.status).toBe(401);
  });

  it('the sign-in limit of an address counts calls to both processes together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_LIMIT + 2; i++) {
      // An unknown account: only the address limit is at work here, no account lockout.
      const res = await login(i % 2 ? portB : portA, '198.51.100.2', 'nobody@lab.example', 'wrong-password');
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(LOGIN_LIMIT).fill(401), 429, 429]);
    // Another address is not held back by it.
    expect((await login(portB, '198.51.100.3', 'nobody@lab.example', 'wrong-password')).status).toBe(401);
  });

  it("an account's lockout holds on both: parallel guesses on both processes get exactly the allowed tries", async () => {
    const email = 'guessed@lab.example';
    await sql.query('INSERT INTO users (email, password_hash) VALUES ($1, $2)', [email, await hashPassword('right-password')]);
    // Twice the allowed failures at once, spread over both processes and many addresses (so no
    // address limit is reached): each try is counted atomically, so exactly the allowed number
    // is checked and the rest are refused.
    const guesses = await Promise.all(
      Array.from({ length: 2 * MAX_FAILED_LOGINS }, (_, i) => login(i % 2 ? portB : portA, `203.0.113.${i + 1}`, email, `guess-${i}`)),
    );
    const statuses = guesses.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array<number>(MAX_FAILED_LOGINS).fill(401), ...Array<number>(MAX_FAILED_LOGINS).fill(429)]);
    // Locked on both, even with the right password.
    for (const port of [portA, portB]) {
      const res = await login(port, '192.0.2.50', email, 'right-password');
      expect(res.status).toBe(429);
      expect(await res.text()).toContain('Too many failed sign-in attempts for this account');
    }
  });

  it("a photographer's list page kept on one process shows a change made through the other at once", async () => {
    const email = 'kept-pages@lab.example';
    await sql.query('INSERT INTO users (email, password_hash, first_name, last_name) VALUES ($1, $2, $3, $4)', [email, await hashPassword('kept-password'), 'Kept', 'Pages']);
    const { token } = (await (await login(portA, '198.51.100.40', email, 'kept-password')).json()) as { token: string };
    const names = async (port: number) =>
      ((await (await call(port, 'GET', '/lab_orders', { from: '198.51.100.40', token })).json()) as { data: { attributes: { order_name: string } }[] }).data.map((d) => d.attributes.order_name);
    expect((await call(portA, 'POST', '/lab_orders', { from: '198.51.100.40', token, body: { order_name: 'First' } })).status).toBe(201);
    // Both processes build and keep the page.
    expect(await names(portA)).toEqual(['First']);
    expect(await names(portB)).toEqual(['First']);
    // A change through B, and one straight in the database: A's kept page is not answered.
    expect((await call(portB, 'POST', '/lab_orders', { from: '198.51.100.40', token, body: { order_name: 'Second' } })).status).toBe(201);
    expect(await names(portA)).toEqual(['Second', 'First']);
    await sql.query("UPDATE lab_orders SET order_name = 'Renamed' WHERE order_name = 'First' AND user_guid = (SELECT guid FROM users WHERE email = $1)", [email]);
    expect(await names(portA)).toEqual(['Second', 'Renamed']);
    expect(await names(portB)).toEqual(['Second', 'Renamed']);
  });

  it("an admin's list page kept on one process shows another photographer's change and new name at once", async () => {
    const email = 'admin-kept@lab.example';
    await sql.query('INSERT INTO users (email, password_hash, first_name, last_name) VALUES ($1, $2, $3, $4)', [email, await hashPassword('kept-password'), 'Seen', 'Byadmin']);
    const { token, guid } = (await (await login(portA, '198.51.100.41', email, 'kept-password')).json()) as { token: string; guid: string };
    const admin = ((await (await login(portB, '198.51.100.42', 'owner@lab.example', 'owner-password')).json()) as { token: string }).token;
    // The page as the app asks for it: hide_open,hide_mine.
    const cards = async (port: number) =>
      ((await (await call(port, 'GET', '/lab_orders?filters=hide_open,hide_mine', { from: '198.51.100.42', token: admin })).json()) as { data: { attributes: { order_name: string; photographer_name: string } }[] }).data
        .filter((d) => d.attributes.order_name.startsWith('Admin sees'))
        .map((d) => `${d.attributes.order_name} by ${d.attributes.photographer_name}`);
    expect((await call(portA, 'POST', '/lab_orders', { from: '198.51.100.41', token, body: { order_name: 'Admin sees' } })).status).toBe(201);
    // Open orders are hidden; both processes build and keep the page.
    expect(await cards(portA)).toEqual([]);
    expect(await cards(portB)).toEqual([]);
    await sql.query("UPDATE lab_orders SET status = 'paid', paid_at = now() WHERE order_name = 'Admin sees'");
    expect(await cards(portA)).toEqual(['Admin sees by Seen Byadmin']);
    expect(await cards(portB)).toEqual(['Admin sees by Seen Byadmin']);
    // The photographer's new name, changed through B: A's kept page is not answered.
    expect((await call(portB, 'PATCH', `/users/${guid}`, { from: '198.51.100.41', token, body: { first_name: 'Renamed' } })).status).toBe(200);
    expect(await cards(portA)).toEqual(['Admin sees by Renamed Byadmin']);
  });

  it('a profile kept on one process shows a change made through the other at once', async () => {
    const email = 'kept-profile@lab.example';
    await sql.query('INSERT INTO users (email, password_hash, first_name, last_name) VALUES ($1, $2, $3, $4)', [email, await hashPassword('kept-password'), 'Kept', 'Profile']);
    const { token, guid } = (await (await login(portA, '198.51.100.43', email, 'kept-password')).json()) as { token: string; guid: string };
    const firstName = async (port: number) => ((await (await call(port, 'GET', '/profile', { from: '198.51.100.43', token })).json()) as { user: { first_name: string } }).user.first_name;
    // Read twice on each: the second read is the kept answer.
    for (const port of [portA, portA, portB, portB]) expect(await firstName(port)).toBe('Kept');
    expect((await call(portB, 'PATCH', `/users/${guid}`, { from: '198.51.100.43', token, body: { first_name: 'Changed' } })).status).toBe(200);
    expect(await firstName(portA)).toBe('Changed');
    await sql.query("UPDATE users SET first_name = 'Straight' WHERE email = $1", [email]);
    expect(await firstName(portA)).toBe('Straight');
    expect(await firstName(portB)).toBe('Straight');
  });

  it('housekeeping is scheduled once and each tick runs on one process only', async () => {
    const schedules = await sql.query('SELECT name, cron FROM pgboss.schedule');
    expect(schedules.rows).toEqual([{ name: HOUSEKEEPING.queue, cron: HOUSEKEEPING.cron }]);

    const runs = () => [a, b].map((p) => p.out().split('\n').filter((line) => line.includes('"msg":"housekeeping done"')).length);
    const jobs = async () =>
      (await sql.query<{ state: string }>('SELECT state FROM pgboss.job WHERE name = $1', [HOUSEKEEPING.queue])).rows.map((r) => r.state);
    // pg-boss checks its schedules every 10 s, then two polls of 5 s: a run within half a minute.
    await expect.poll(jobs, { timeout: 40_000, interval: 500 }).toContain('completed');
    // A job runs again only from a state that waits for a run: once every job is completed, and
    // the logs show as many runs as completed jobs, no process can run one a second time.
    const done = async () => {
      const states = await jobs();
      const [runsA = 0, runsB = 0] = runs();
      return states.every((s) => s === 'completed') && runsA + runsB >= states.length ? states : null;
    };
    await expect.poll(done, { timeout: 20_000, interval: 500 }).not.toBeNull();
    const states = (await done()) ?? [];
    const [runsA = 0, runsB = 0] = runs();
    // One run per job, never one per process; a second job only if a new minute began meanwhile.
    expect(runsA + runsB).toBe(states.filter((s) => s === 'completed').length);
    expect(states.length).toBeGreaterThanOrEqual(1);
    expect(states.length).toBeLessThanOrEqual(2);
  }, 60_000);

  it('both stop cleanly on SIGTERM', async () => {
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
  }, 30_000);
});
