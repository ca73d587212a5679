import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, EXTRA_SERVER_START_MS, freePort, serverStarted, signIn } from './helpers.ts';

const SENTRY_CHUNK = /sentry-reporter-[\w-]+\.js/;

test('without SENTRY_DSN the error reporter is never downloaded, and nothing leaves for another host', async ({ page, baseURL }) => {
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto('/login');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
  // An unhandled error in the page: with reporting off it stays in the page. Resolved once the
  // app's own handler (added first) has had the event: any download it started is asked for by then.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        window.addEventListener('unhandledrejection', () => resolve(), { once: true });
        void Promise.reject(new Error('nobody hears this'));
      }),
  );
  const origin = new URL(baseURL ?? '').origin;
  expect(requested.filter((u) => SENTRY_CHUNK.test(u))).toEqual([]);
  expect(requested.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
  // Not even the service worker's precache holds it.
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(req.url);
    return urls;
  });
  expect(cached.filter((u) => SENTRY_CHUNK.test(u))).toEqual([]);
});

test.describe('with SENTRY_DSN', () => {
  let receiver: Server;
  let server: ChildProcess;
  let dataDir: string;
  let base = '';
  const envelopes: string[] = [];

  test.beforeAll(async () => {
    // The server's start (helpers.ts serverStarted) and a little more.
    test.setTimeout(EXTRA_SERVER_START_MS + 30_000);
    // A stand-in for Sentry on loopback: keeps what the page posts to /api/<project>/envelope/.
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (req.url?.startsWith('/api/7/envelope/')) envelopes.push(body);
        res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/json' }).end('{}');
      });
    });
    const receiverPort = await new Promise<number>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve((receiver.address() as { port: number }).port)));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'lab-e2e-sentry-'));
    server = spawn('node_modules/.bin/tsx', ['server/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        CLIENT_DIR: 'dist',
        LOG_LEVEL: 'warn',
        NODE_NO_WARNINGS: '1',
        SENTRY_DSN: `http://publickey@127.0.0.1:${receiverPort}/7`,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    server.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    await serverStarted(base, () => stderr);
  });

  test.afterAll(() => {
    server?.kill('SIGTERM');
    receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("an unhandled error in the app is reported with the user's guid and nothing personal", async ({ page }) => {
    const chunks: string[] = [];
    page.on('request', (r) => SENTRY_CHUNK.test(r.url()) && chunks.push(r.url()));
    await page.goto(`${base}/login`);
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
    await expect.poll(() => chunks.length).toBe(1);
    const guid = await page.evaluate(() => localStorage.getItem('user-guid'));
    expect(guid).toBeTruthy();

    await page.evaluate((email) => setTimeout(() => void Promise.reject(new Error(`could not sync the order of ${email}`))), DEMO_ADMIN.email);
    await expect.poll(() => envelopes.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const raw = envelopes.join('\n');
    expect(raw).toContain('could not sync the order of [email]');
    expect(raw).toContain(`"user":{"id":"${guid}"}`);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    for (const secret of [DEMO_ADMIN.email, DEMO_ADMIN.password, token ?? 'no token']) expect(raw).not.toContain(secret);
  });
});
