import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

const PUBLIC = ['/login', '/signup/1-of-3', '/refer/ANSEL', '/shopify-connect', '/forgot-password', '/forgot-password-confirmation', '/reset-password'];

const SIGNED_IN = [
  '/signup/2-of-3',
  '/signup/3-of-3',
  '/signup/confirmation',
  '/',
  '/account',
  '/credit',
  '/calculate',
  '/price-lists',
  '/cart-preview/abc',
  '/lab-orders',
  '/api-invoices',
  '/photographers/abc',
  '/photographers',
  '/discount-codes',
  '/lab-order-confirmation',
  '/lab-orders/upload',
  '/lab-orders/abc/upload-progress',
  '/lab-orders/abc/edit/order-builder',
  '/lab-orders/abc/edit/order-builder/line-item/def',
  '/lab-orders/abc/review',
  '/lab-orders/abc/merge-order/def/review',
  '/lab-orders/abc/checkout-details',
  '/lab-orders/abc/checkout-final/',
  '/lab-orders/abc',
];

test('public routes open without signing in', async ({ page }) => {
  for (const path of PUBLIC) {
    await page.goto(path);
    await expect(page, path).toHaveURL(new RegExp(`${path}$`));
    await expect(page.locator('h1').first()).toBeVisible();
  }
});

test('every signed-in route sends a visitor to /login, and resolves once signed in', async ({ page }) => {
  for (const path of SIGNED_IN.slice(0, 4)) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login$/);
  }
  await signIn(page);
  for (const path of SIGNED_IN) {
    await page.goto(path);
    await expect(page, path).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`));
    await expect(page.getByText('PAGE NOT FOUND')).toHaveCount(0);
    await expect(page.locator('#root')).not.toBeEmpty();
    await expect(page.locator('h1, p').first()).toBeVisible();
  }
  await page.goto('/lab-order-confirmation');
  await expect(
    page.getByText("Thank you for your order! We'll get started on it right away. You should receive a confirmation email and receipt shortly."),
  ).toBeVisible();
  await page.getByRole('link', { name: 'RETURN HOME' }).click();
  await expect(page).toHaveURL(/\/lab-orders$/);
  await page.goto('/price-lists');
  await expect(page.getByRole('table', { name: 'Lustre' })).toBeVisible();
});
