/**
 * Issue 31: the connection status is part of the layout (in the navigation bar, or a strip above
 * the screens without it), never laid over a control; and /login says nothing of the connection
 * before a sign-in is tried, then that the device is offline.
 */
import { expect, test, type Page } from '@playwright/test';
import { rmSync } from 'node:fs';
import { signIn } from './helpers.ts';
import { photoDir, smallPhotos } from './upload-fixtures.ts';

const SIGN_IN_OFFLINE = 'This device is offline. Connect to the internet, then sign in.';

/** Three rows of the builder's strip at 1366 px: its last row passes the foot of the screen. */
const PHOTOS = 30;

/** The controls whose box the status's box overlaps (none is the rule), as short descriptions. */
const controlsUnderStatus = (page: Page) =>
  page.evaluate(() => {
    const badge = document.querySelector('[role="status"][aria-label="Connection and sync"]');
    if (!badge) throw new Error('no connection status on the screen');
    const b = badge.getBoundingClientRect();
    const controls = document.querySelectorAll('a[href], button, input, select, textarea, [role="button"], [role="combobox"], [role="checkbox"], [tabindex]:not([tabindex="-1"])');
    return [...controls]
      .filter((el) => !el.contains(badge) && !badge.contains(el))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top;
      })
      .map((el) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`);
  });

test('at 1366x900 and 375x800 the status covers no control on the builder, the upload grid and /photographers', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/login');
  await signIn(page);
  // Enough photos for the builder's strip and the upload grid to reach the foot of a desktop screen.
  const dir = photoDir();
  const photos = await smallPhotos(dir, PHOTOS);
  await page.goto('/lab-orders/upload');
  await page.getByLabel('Order Name', { exact: true }).fill(`Status ${Date.now()}`);
  await page.getByRole('button', { name: 'SAVE AND UPLOAD' }).click();
  await expect(page).toHaveURL(/\/upload-progress$/);
  const orderGuid = /\/lab-orders\/([^/]+)\/upload-progress$/.exec(page.url())?.[1] ?? '';
  await page.getByLabel('SELECT PHOTOS TO UPLOAD').setInputFiles(photos);
  await expect(page.getByText(`${PHOTOS} of ${PHOTOS} photos uploaded`)).toBeVisible({ timeout: 60_000 });
  rmSync(dir, { recursive: true, force: true });
  const screens: { path: string; ready: (p: Page) => Promise<void> }[] = [
    {
      path: `/lab-orders/${orderGuid}/edit/order-builder`,
      ready: (p) => expect(p.getByRole('button', { name: 'SELECT ALL' })).toBeVisible(),
    },
    {
      path: `/lab-orders/${orderGuid}/upload-progress`,
      ready: (p) => expect(p.getByRole('region', { name: 'Uploaded photos' }).getByRole('img')).toHaveCount(PHOTOS),
    },
    {
      path: '/photographers',
      ready: (p) => expect(p.getByLabel(/^Available credit of /).first()).toBeVisible(),
    },
  ];
  for (const size of [{ width: 1366, height: 900 }, { width: 375, height: 800 }]) {
    await page.setViewportSize(size);
    for (const screen of screens) {
      await page.goto(screen.path);
      await screen.ready(page);
      await expect(page.getByRole('status', { name: 'Connection and sync' })).toContainText('All changes sent');
      await page.screenshot({ path: test.info().outputPath(`${screen.path.split('/').at(-1)}-${size.width}.png`) });
      expect(await controlsUnderStatus(page), `${screen.path} at ${size.width}px`).toEqual([]);
    }
  }
});

test('offline /login while signed in: nothing said before SIGN IN, then that the device is offline', async ({ page, context }) => {
  await page.goto('/login');
  await signIn(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });
  await context.setOffline(true);
  // The screen's own look at the lab fails first: what it would say, it says by then.
  const checked = page.waitForEvent('requestfailed', (r) => r.url().includes('/api/v2/status'));
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'SIGN IN' })).toBeVisible();
  await checked;
  await expect(page.getByRole('button', { name: 'SIGN IN' })).toBeEnabled();
  await expect(page.getByText(/not answering/)).toHaveCount(0);
  await expect(page.getByText(SIGN_IN_OFFLINE)).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.getByLabel('Email').fill('admin@example.com');
  await page.getByLabel('Password').fill('admin-password');
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await expect(page.getByText(SIGN_IN_OFFLINE)).toBeVisible();
  await expect(page.getByText(/not answering/)).toHaveCount(0);
  for (const width of [375, 1366]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: test.info().outputPath(`login-offline-${width}.png`) });
  }
});
