import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Page, type Route } from '@playwright/test';
import sharp from 'sharp';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';
import { EXTRA_SERVER_START_MS, freePort, ordersListLoaded, probeFails, serverStarted, signIn } from './helpers.ts';

const controlled = (page: Page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });

/** The keys of the kept reads in IndexedDB, read with the browser's own API. */
const keptReads = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('print-lab');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('cachedReads').objectStore('cachedReads').getAllKeys();
          req.onsuccess = () => resolve((req.result as string[]).sort());
          req.onerror = () => reject(req.error);
        };
      }),
  );

test('the app is installable: manifest, icons, a controlling service worker, Chromium agrees', async ({ request, baseURL }) => {
  // Installability needs a real profile: the default test context is incognito, where Chromium
  // never offers installation.
  const profile = mkdtempSync(join(tmpdir(), 'lab-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, baseURL });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto('/login');
  await controlled(page);

  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await (await request.get(manifestHref ?? '')).json();
  expect(manifest).toMatchObject({ name: 'Print Lab Orders', short_name: 'Print Lab', display: 'standalone', start_url: '/', theme_color: '#1f2a36', background_color: '#f7f5f0' });
  const sizes: Record<string, string> = {};
  for (const icon of manifest.icons as { src: string; sizes: string; purpose: string }[]) {
    const res = await request.get(icon.src);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('image/png');
    const meta = await sharp(await res.body()).metadata();
    expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
    sizes[`${icon.sizes} ${icon.purpose}`] = icon.src;
  }
  expect(Object.keys(sizes)).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));

  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors).toEqual([]);
  await context.close();
  rmSync(profile, { recursive: true, force: true });
});

/**
 * Signed in on /lab-orders under the service worker, with the catalogue in the worker's cache.
 * The worker installs while the first pages load; when it activates during a navigation, the page
 * that navigation opens is not claimed and only the next load is controlled. So: wait until it is
 * active, reload, and wait until its cache holds the catalogue the app reads.
 */
async function onOrdersUnderWorker(page: Page): Promise<void> {
  await page.goto('/login');
  await signIn(page);
  await page.goto('/lab-orders');
  await expect(ordersListLoaded(page)).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await controlled(page);
  await expect.poll(() => page.evaluate(async () => Boolean(await caches.match('/api/v2/calculator_catalogue'))), { timeout: 20_000 }).toBe(true);
}

const catalogueFromWorkerCache = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith('/api/v2/calculator_catalogue') && r.fromServiceWorker());

test('with the network cut, a reload of /lab-orders and of an order builder still renders from cache', async ({ page, context }) => {
  await onOrdersUnderWorker(page);
  const indicator = page.getByRole('status', { name: 'Connection and sync' });
  await expect(indicator).toContainText('Online');

  await context.setOffline(true);
  // The service worker answers the catalogue from its cache while the network is cut: an answer
  // that proves nothing about reaching the lab, and must not turn the indicator to Online.
  const fromWorkerCache = catalogueFromWorkerCache(page);
  const probed = probeFails(context);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
  await expect(page.getByText(/You are offline\. These are your orders as of/)).toBeVisible();
  await expect(ordersListLoaded(page)).toBeVisible();
  await fromWorkerCache;
  await expect(indicator).toContainText('Offline');
  // Past the first probe of the lab too: still offline, and the list and the indicator agree.
  await probed;
  await expect(indicator).toContainText('Offline');
  await expect(page.getByText(/You are offline\./)).toBeVisible();

  await page.goto('/lab-orders/abc/edit/order-builder');
  await expect(page.getByRole('heading', { name: 'ORDER BUILDER' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'ORDER BUILDER' })).toBeVisible();

  // Screens are lazy routes: one never opened in this visit still comes from the precache.
  await page.goto('/lab-order-confirmation');
  await expect(page.getByRole('link', { name: 'RETURN HOME' })).toBeVisible();

  await context.setOffline(false);
  await expect(indicator).toContainText('Online');
  // Back on the orders list, the live list replaces the kept copy.
  await page.goto('/lab-orders');
  await expect(ordersListLoaded(page)).toBeVisible();
  await expect(page.getByText(/These are your orders as of/)).toHaveCount(0);
});

test('a dead link (the browser says online, the lab does not answer): the cached catalogue does not make the app say Online', async ({ page, context }) => {
  await onOrdersUnderWorker(page);
  const indicator = page.getByRole('status', { name: 'Connection and sync' });
  // Every call that would reach the lab fails; the worker still answers the catalogue from its cache.
  const cut = (route: Route) => route.abort('internetdisconnected');
  await context.route('**/api/v2/**', cut);
  const fromWorkerCache = catalogueFromWorkerCache(page);
  const probed = probeFails(context);
  await page.reload();
  await fromWorkerCache;
  await expect(page.getByText(/You are offline\. These are your orders as of/)).toBeVisible();
  await expect(indicator).toContainText('Offline');
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);
  // Past the first probe of the lab as well.
  await probed;
  await expect(indicator).toContainText('Offline');

  // The lab answers again: the probe (or the user coming back to the app) notices, and the live
  // list replaces the kept copy.
  await context.unroute('**/api/v2/**', cut);
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(indicator).toContainText('Online');
  await expect(page.getByText(/These are your orders as of/)).toHaveCount(0);
  await expect(ordersListLoaded(page)).toBeVisible();
});

test("signing out forgets the user's kept data on this device", async ({ page }) => {
  await page.goto('/login');
  await signIn(page);
  await expect(ordersListLoaded(page)).toBeVisible();
  await expect.poll(() => keptReads(page)).toContain('admin@example.com|lab_orders');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The user's orders are gone; the lab's catalogue, the same for everyone, stays.
  await expect.poll(() => keptReads(page)).toEqual(['lab|calculator_catalogue']);
});

test.describe('a new build deployed under the running app', () => {
  let port = 0;
  let server: ChildProcess;
  let clientDir: string;
  let dataDir: string;
  let newBuild: string;

  test.beforeAll(async () => {
    // The server's start (helpers.ts serverStarted) and a little more.
    test.setTimeout(EXTRA_SERVER_START_MS + 30_000);
    port = await freePort();
    clientDir = mkdtempSync(join(tmpdir(), 'lab-e2e-client-'));
    dataDir = mkdtempSync(join(tmpdir(), 'lab-e2e-data-'));
    newBuild = mkdtempSync(join(tmpdir(), 'lab-e2e-next-'));
    cpSync('dist', clientDir, { recursive: true });
    server = spawn('node_modules/.bin/tsx', ['server/main.ts'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, CLIENT_DIR: clientDir, LOG_LEVEL: 'warn', LOGIN_RATE_LIMIT: '1000', NODE_NO_WARNINGS: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    server.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    await serverStarted(`http://127.0.0.1:${port}`, () => stderr);
  });

  test.afterAll(() => {
    server.kill('SIGTERM');
    for (const dir of [clientDir, dataDir, newBuild]) rmSync(dir, { recursive: true, force: true });
  });

  test('is detected, offered and applied, and unsent work survives', async ({ page }) => {
    test.setTimeout(120_000);
    const base = `http://127.0.0.1:${port}`;
    await page.goto(`${base}/login`);
    await signIn(page);
    await controlled(page);
    const before = await page.evaluate(() => document.documentElement.dataset.appVersion);
    expect(before).toBeTruthy();

    // A change made offline and not sent yet, as the builder's outbox keeps it.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('print-lab');
          open.onsuccess = () => {
            const tx = open.result.transaction('outbox', 'readwrite');
            tx.objectStore('outbox').put({ id: 'unsent-1', owner: 'admin@example.com', createdAt: Date.now(), name: 'updateQuantity', payload: { quantity: 2 } });
            tx.oncomplete = () => resolve();
            tx.onerror = () => reject(tx.error);
          };
        }),
    );
    // Written behind Dexie's back, so the page reads it afresh.
    await page.reload();
    const indicator = page.getByRole('status', { name: 'Connection and sync' });
    await expect(indicator).toContainText('1 change waiting to be sent');

    // Deploy: build with a new version and copy it over the served files.
    const build = spawnSync('node_modules/.bin/vite', ['build', '--outDir', newBuild, '--emptyOutDir', '--logLevel', 'error'], {
      env: { ...process.env, VITE_BUILD_ID: 'e2e-next-build' },
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
    cpSync(newBuild, clientDir, { recursive: true, force: true });

    // The app checks on focus (and every few minutes).
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    const banner = page.getByRole('status').filter({ hasText: 'A new version of the app is ready.' });
    await expect(banner).toBeVisible({ timeout: 30_000 });
    expect(await page.evaluate(() => localStorage.getItem('client-version'))).toBe('e2e-next-build');
    await banner.getByRole('button', { name: 'UPDATE NOW' }).click();

    await expect(page.locator('html')).toHaveAttribute('data-app-version', 'e2e-next-build', { timeout: 30_000 });
    await expect(banner).toHaveCount(0);
    await expect(indicator).toContainText('1 change waiting to be sent');
    await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
  });
});
