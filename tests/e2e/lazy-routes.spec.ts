import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { holdRequests, signIn, stillClock } from './helpers.ts';

// docs/performance-notes.md §8 and issue 8: the JavaScript of /login and of /lab-orders stays within 150 KB gzip
// each, whoever opens it: a lab admin's list, with its admin tools (filter bar, urgent section,
// card lines: a little more than a photographer's), is held to the same budget.
const BUDGET_BYTES = 150 * 1024;

interface Loaded {
  total: number;
  chunks: string[];
  /** Every path the page asked for, scripts or not (the soft proof's worker and WebAssembly). */
  paths: string[];
}

/**
 * Opens a route in a fresh context with no service worker and no HTTP cache, and sums the gzip
 * size (level 9, as the build precompresses) of every script the page fetched. Gzipping the
 * bodies here keeps the figure independent of whatever encoding the server negotiates.
 */
async function scriptsOf(browser: Browser, path: string, ready: (page: Page) => Promise<void>, storageState?: string): Promise<Loaded> {
  const context = await browser.newContext({ serviceWorkers: 'block', storageState: storageState ? JSON.parse(storageState) : undefined });
  const page = await context.newPage();
  const bodies: Promise<[string, number]>[] = [];
  const paths: string[] = [];
  context.on('request', (req) => paths.push(new URL(req.url()).pathname));
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script' && !res.url().endsWith('.js')) return;
    bodies.push(res.body().then((b) => [new URL(res.url()).pathname, gzipSync(b, { level: 9 }).length]));
  });
  await page.goto(path);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const sizes = await Promise.all(bodies);
  await context.close();
  return {
    total: sizes.reduce((sum, [, n]) => sum + n, 0),
    chunks: sizes.map(([name, n]) => `${name} ${(n / 1024).toFixed(1)} KB`).sort(),
    paths,
  };
}

test('/login and /lab-orders each load at most 150 KB gzip of JavaScript', async ({ browser, page }) => {
  const login = await scriptsOf(browser, '/login', (p) => expect(p.getByRole('button', { name: 'SIGN IN' })).toBeVisible());

  const listShown = async (p: Page) => {
    await expect(p.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
    await expect(p.getByText('loading', { exact: true })).toHaveCount(0);
  };
  // A photographer with an order, so that the list shows a card.
  const who = { email: `budget-${randomBytes(4).toString('hex')}@studio.example`, password: 'platinum-print-7' };
  expect((await page.request.post('/api/v2/users', { data: { email: who.email, first_name: 'Berenice', last_name: 'Abbott', password: who.password, password_confirmation: who.password } })).ok()).toBe(true);
  await page.goto('/login');
  await signIn(page, who);
  const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
  expect((await page.request.post('/api/v2/lab_orders', { headers: { token }, data: { order_name: 'Budget' } })).ok()).toBe(true);
  const orders = await scriptsOf(browser, '/lab-orders', listShown, JSON.stringify(await page.context().storageState()));

  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await adminPage.goto('/login');
  await signIn(adminPage);
  const adminOrders = await scriptsOf(browser, '/lab-orders', listShown, JSON.stringify(await admin.storageState()));
  await admin.close();

  for (const [route, loaded, budget] of [
    ['/login', login, BUDGET_BYTES],
    ['/lab-orders (photographer)', orders, BUDGET_BYTES],
    ['/lab-orders (admin)', adminOrders, BUDGET_BYTES],
  ] as const) {
    const summary = `${route}: ${(loaded.total / 1024).toFixed(1)} KB gzip JS\n  ${loaded.chunks.join('\n  ')}`;
    test.info().annotations.push({ type: 'js', description: summary });
    console.log(summary);
    expect(loaded.total, summary).toBeLessThanOrEqual(budget);
  }
  // Nothing is queued before signing in: the sign-in screen needs no IndexedDB code, nor any
  // other screen's.
  expect(login.chunks.filter((c) => /\/(dexie|db|account-screen|orders-list-screen|calculator-screen)-/.test(c))).toEqual([]);
  expect(orders.chunks.filter((c) => /\/(login-screen|account-screen|calculator-screen)-/.test(c))).toEqual([]);
  // The soft proof (issue 35) loads when a proof is asked for: its worker and LittleCMS's
  // WebAssembly come with none of these pages.
  for (const loaded of [login, orders, adminOrders]) expect(loaded.paths.filter((p) => /proof-worker|lcms|\.wasm$/.test(p))).toEqual([]);
});

test('the built page holds no schema library: src/api takes only types from the contract', () => {
  // zod's own code names its internals `_zod` and its error class ZodError; minifying keeps both.
  const zodMarks = /ZodError|_zod/;
  expect(readFileSync('node_modules/zod/v4/core/core.js', 'utf8')).toMatch(zodMarks);
  const dir = 'dist/assets';
  const scripts = readdirSync(dir).filter((name) => name.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((name) => zodMarks.test(readFileSync(join(dir, name), 'utf8')))).toEqual([]);
});

test('a screen whose code is gone after a deploy reloads into the new build', async ({ browser }) => {
  // No service worker: its precache would still hold the old build's chunks.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
  // The account screen's chunk answers 404 once, as the old name does after a deploy.
  let refused = 0;
  await page.route(/\/assets\/account-screen-[^/]+\.js$/, (route) => {
    refused += 1;
    return route.fulfill({ status: 404, body: 'Not Found' });
  }, { times: 1 });
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'ACCOUNT', exact: true })).toBeVisible();
  expect(refused).toBe(1);
  await context.close();
});

test('while the next screen’s code arrives the current one stays on show but takes no typing', async ({ browser }) => {
  // No service worker, so the screen's code comes from the network, where this test holds it.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const release = await holdRequests(page, /\/forgot-password-screen-[^/]*\.js$/);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'SIGN IN' })).toBeVisible();
  await page.getByRole('link', { name: 'RESET' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);

  // The sign-in form is still there, but what is typed into it would vanish with it: it is inert.
  const signInEmail = page.getByLabel('Email');
  await expect(page.getByRole('button', { name: 'SIGN IN' })).toBeVisible();
  await signInEmail.click({ force: true });
  await page.keyboard.type('lost@studio.example');
  await expect(signInEmail).toHaveValue('');
  await expect(signInEmail).not.toBeFocused();

  release();
  await expect(page.getByRole('heading', { name: 'FORGOT PASSWORD' })).toBeVisible();
  await page.getByLabel('Email').fill('kept@studio.example');
  await expect(page.getByLabel('Email')).toHaveValue('kept@studio.example');
  await context.close();
});

test('the first screen comes the moment its code is in: ‘loading’ does not hold it', async ({ browser }) => {
  // No service worker, so the screen's code comes from the network, where this test holds it.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  // The page's clock stands still. React shows a Suspense boundary's content no sooner than 300 ms
  // after the boundary last showed its fallback, by a timer: a screen that waited for one never
  // comes on a clock that does not move. (src/app/app-routes.tsx)
  await stillClock(context);
  const page = await context.newPage();
  const release = await holdRequests(page, /\/login-screen-[^/]*\.js$/);
  await page.goto('/login');
  await expect(page.getByText('loading', { exact: true })).toBeVisible();
  release();
  await expect(page.getByRole('button', { name: 'SIGN IN' })).toBeVisible();
  await expect(page.getByText('loading', { exact: true })).toHaveCount(0);
  await context.close();
});
