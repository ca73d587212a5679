/**
 * Issue 13, the order detail (docs/orders.md §2 Order detail) as a photographer sees it, against the
 * real lab: an order with uploaded photos and line items put in through the lab's API.
 */
import { expect, test, type Page } from '@playwright/test';
import { formatMoney } from '../../src/domain/money.ts';
import { ORDER_NOT_OPEN_TO_CHECKOUT } from '../../src/app/routes.ts';
import { NO_BOUTIQUE_PACKAGING } from '../../src/client-rules/order-detail.ts';
import { addLineItems, atLab, cartWithPhotos } from './cart-fixtures.ts';
import { WIDTHS, expectAccessible } from './screens.ts';

// An upload, a sign-up and the lab's answers on a machine shared with other runs.
test.setTimeout(120_000);

const dollars = (amount: number) => formatMoney(Math.round(amount * 100));
const figure = (page: Page, label: string) => page.getByRole('group', { name: 'Order figures' }).locator(`dt:text-is("${label}") + dd`);

test('a photographer sees the open order: summary, line items, the photo large, CONTINUE ORDER', async ({ page, request }) => {
  const cart = await cartWithPhotos(page, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'BLUE_0002.jpg', colour: 'blue' },
  ]);
  await addLineItems(request, cart, [
    { photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10', mat: true, notes: 'Warm it up a little' },
    { photo: 'BLUE_0002.jpg', paper: 'Metallic', size: '5x7', quantity: 3 },
  ]);
  const lab = await atLab(request, cart);

  await page.goto(`/lab-orders/${cart.orderGuid}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Cart [0-9a-f]{8}$/);
  await expect(page.getByText('OPEN', { exact: true })).toBeVisible();
  await expect(page.getByText(NO_BOUTIQUE_PACKAGING)).toBeVisible();
  await expect(page.getByText('No shipping address yet')).toBeVisible();
  await expect(page.getByText('No card chosen')).toBeVisible();
  await expect(figure(page, 'SUBTOTAL')).toHaveText(dollars(lab.subtotal));
  await expect(figure(page, 'TOTAL')).toHaveText(dollars(lab.total));
  // A photographer sees no admin panel.
  await expect(page.getByRole('complementary', { name: 'Admin panel' })).toHaveCount(0);

  const items = page.getByRole('list', { name: 'Line items' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  const red = items.filter({ hasText: 'Lustre' });
  await expect(red.getByText('8x10')).toBeVisible();
  await expect(red.getByText(/^4-PLY MAT: /)).toBeVisible();
  await expect(red.getByText('Warm it up a little')).toBeVisible();
  await expect(items.filter({ hasText: 'Metallic' }).getByRole('definition').filter({ hasText: /^3$/ })).toBeVisible();

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, `order detail at ${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole('button', { name: 'View photo RED_0001.jpg' }).click();
  const modal = page.getByRole('dialog', { name: 'RED_0001.jpg' });
  await expect(modal.getByRole('img', { name: 'RED_0001.jpg' })).toBeVisible();
  await expect.poll(() => modal.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expectAccessible(page, 'order detail photo modal');
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);
  await page.getByRole('button', { name: 'View photo BLUE_0002.jpg' }).click();
  await page.getByRole('dialog', { name: 'BLUE_0002.jpg' }).getByRole('button', { name: 'CLOSE' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('link', { name: 'CONTINUE ORDER' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${cart.orderGuid}/edit/order-builder$`));
});

test('the bad-status notice shows on the order detail once, and an unknown order says so', async ({ page }) => {
  const cart = await cartWithPhotos(page, [{ name: 'GREEN_0003.jpg', colour: 'green' }]);
  // The redirect of a checkout of an order no longer open (src/features/cart-review/review-redirects.ts reviewRedirect).
  await page.goto(`/lab-orders/${cart.orderGuid}?notice=bad_status`);
  await expect(page.getByText(ORDER_NOT_OPEN_TO_CHECKOUT)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${cart.orderGuid}$`));
  await expect(page.getByText('This order has no line items.')).toBeVisible();

  await page.goto('/lab-orders/6f1c2b3a-0000-4000-8000-000000000000');
  await expect(page.getByRole('alert').filter({ hasText: /^ERROR LOADING: / })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'ORDER' })).toBeVisible();
});
