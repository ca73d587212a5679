import { randomBytes } from 'node:crypto';
import { expect, test, type Locator } from '@playwright/test';
import { LOGGED_OUT, signIn } from './helpers.ts';
import { expectAccessible } from './screens.ts';

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return { ...b, right: b.x + b.width, bottom: b.y + b.height };
};

test.describe('on a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('the navigation is a MENU: keyboard and screen reader friendly, closing behind a chosen link', async ({ page }) => {
    await page.goto('/login');
    await signIn(page);
    const menu = page.getByRole('button', { name: 'MENU' });
    const credit = page.getByRole('link', { name: 'CREDIT' });
    // The logo, account and log-out stay in the bar; the links wait in the menu.
    await expect(page.getByRole('link', { name: 'Print lab home' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Account' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(credit).toBeHidden();

    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator(`#${await menu.getAttribute('aria-controls')}`)).toBeVisible();
    for (const name of ['ORDERS', 'PRICING', 'CREDIT', 'PHOTOGRAPHERS']) await expect(page.getByRole('link', { name })).toBeVisible();
    // Tab walks into the open menu; Escape closes it and gives the focus back to MENU.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'ORDERS' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeFocused();
    await expect(credit).toBeHidden();

    await menu.click();
    const bar = await box(page.locator('.nav-bar'));
    for (const name of ['CREDIT', 'PHOTOGRAPHERS']) {
      // Inside the screen and on the dark menu, not spilled onto the page.
      const link = await box(page.getByRole('link', { name }));
      expect(link.x).toBeGreaterThanOrEqual(0);
      expect(link.right).toBeLessThanOrEqual(320);
      expect(link.y).toBeGreaterThanOrEqual(bar.bottom - 1);
    }
    await credit.click();
    await expect(page).toHaveURL(/\/credit$/);
    await expect(page.getByRole('heading', { name: 'CREDIT', exact: true })).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(credit).toBeHidden();
  });

  test('the connection status and the toasts stay on the screen and off the content', async ({ page }) => {
    await page.goto('/signup/1-of-3');
    await expect(page.getByRole('heading', { name: 'CREATE YOUR ACCOUNT' })).toBeVisible();
    // The status is a strip of the layout above the screen: inside the width, over nothing.
    const status = await box(page.getByRole('status', { name: 'Connection and sync' }));
    expect(status.x).toBeGreaterThanOrEqual(0);
    expect(status.right).toBeLessThanOrEqual(320);
    const heading = await box(page.getByRole('heading', { name: 'CREATE YOUR ACCOUNT' }));
    expect(heading.y).toBeGreaterThanOrEqual(status.bottom);

    await page.goto('/login');
    await signIn(page);
    await page.getByRole('button', { name: 'Log out' }).click();
    const toast = page.getByRole('status').filter({ hasText: LOGGED_OUT });
    await expect(toast).toBeVisible();
    const t = await box(toast);
    expect(t.x).toBeGreaterThanOrEqual(0);
    expect(t.right).toBeLessThanOrEqual(320);
    const close = await box(toast.getByRole('button', { name: 'Close notification' }));
    expect(Math.min(close.width, close.height)).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });

  test('an admin acting as a photographer still sees who, inside the bar', async ({ page, request }) => {
    const email = `acting-${randomBytes(4).toString('hex')}@a-rather-long-studio-name.example`;
    const res = await request.post('/api/v2/users', {
      data: { email, first_name: 'Imogen', last_name: 'Cunningham', password: 'magnolia-blossom', password_confirmation: 'magnolia-blossom' },
    });
    const { token } = (await res.json()) as { token: string };
    await page.goto('/login');
    await signIn(page);
    await page.evaluate(
      ({ t, e }) => {
        localStorage.setItem('logged-in-as-token', t);
        localStorage.setItem('logged-in-as-email', e);
        localStorage.setItem('logged-in-as-name', 'Imogen Cunningham of the Magnolia Blossom Studio');
      },
      { t: token, e: email },
    );
    await page.goto('/lab-orders');
    await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
    const badge = await box(page.getByText('Acting as Imogen Cunningham of the Magnolia Blossom Studio'));
    const bar = await box(page.locator('.nav-bar'));
    expect(badge.x).toBeGreaterThanOrEqual(0);
    expect(badge.right).toBeLessThanOrEqual(320);
    expect(badge.bottom).toBeLessThanOrEqual(bar.bottom);
    await expectAccessible(page, '/lab-orders acting as a photographer');
  });
});

test('on a desktop the links sit in the bar and there is no MENU', async ({ page }) => {
  await page.goto('/login');
  await signIn(page);
  await expect(page.getByRole('button', { name: 'MENU' })).toBeHidden();
  for (const name of ['ORDERS', 'PRICING', 'CREDIT', 'PHOTOGRAPHERS', 'DISCOUNT CODES']) await expect(page.getByRole('link', { name })).toBeVisible();
  // The admin's links still fit in one bar at the narrowest width without a MENU (app.css).
  await page.setViewportSize({ width: 900, height: 700 });
  await expect(page.getByRole('button', { name: 'MENU' })).toBeHidden();
  const nav = await page.getByRole('navigation', { name: 'Main' }).evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(nav.scroll).toBeLessThanOrEqual(nav.client);
  const last = await page.getByRole('button', { name: 'Log out' }).boundingBox();
  expect((last?.x ?? 0) + (last?.width ?? 0)).toBeLessThanOrEqual(900);
});
