/**
 * Issue 31: /login says nothing of the connection before a sign-in is tried, then that the
 * device is offline.
 */
import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

const SIGN_IN_OFFLINE = 'This device is offline. Connect to the internet, then sign in.';

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
