/**
 * Issue 31 (7-9 of the photographer's defects): offline, the orders list is the device's own copy,
 * every order it holds with its last-known status, and the changes waiting to be sent are counted
 * once, the same in the status bar and in the cart.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { addLineItems, orderWithPhotos, signUpPhotographer } from './cart-fixtures.ts';
import { adminToken } from './order-actions-fixtures.ts';
import { idbRows } from './helpers.ts';

test.setTimeout(120_000);

const status = (page: Page) => page.getByRole('status', { name: 'Connection and sync' });

test('offline, the list holds every order of the device with its last-known status, and one count of waiting changes', async ({ page, context, request }) => {
  // A first order the list has seen as PAID.
  const token = await signUpPhotographer(page);
  const admin = await adminToken(request);
  const wedding = `Wedding ${randomBytes(4).toString('hex')}`;
  const made = await request.post('/api/v2/lab_orders', { headers: { token }, data: { order_name: wedding } });
  expect(made.ok(), await made.text()).toBe(true);
  const weddingGuid = ((await made.json()) as { data: { attributes: { guid: string } } }).data.attributes.guid;
  const setStatus = async (value: string) => {
    const res = await request.patch(`/api/v2/lab_orders/${weddingGuid}`, { headers: { token: admin }, data: { type: 'status', value } });
    expect(res.ok(), await res.text()).toBe(true);
  };
  await setStatus('paid');
  await page.goto('/lab-orders');
  await expect(page.getByRole('article', { name: wedding }).getByText('PAID', { exact: true })).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });

  // A second order, made after the list last asked the lab, with three line items in its cart.
  const cart = await orderWithPhotos(page, token, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'BLUE_0002.jpg', colour: 'blue' },
    { name: 'GREEN_0003.jpg', colour: 'green' },
  ]);
  await addLineItems(request, cart, [
    { photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10' },
    { photo: 'BLUE_0002.jpg', paper: 'Lustre', size: '5x7' },
    { photo: 'GREEN_0003.jpg', paper: 'Metallic', size: '5x7' },
  ]);
  const cartName = ((await (await request.get(`/api/v2/lab_orders/${cart.orderGuid}`, { headers: { token } })).json()) as { data: { attributes: { order_name: string } } }).data.attributes.order_name;

  // The lab cancels the first; the photographer reads it on the order's page.
  await setStatus('cancelled');
  await page.goto(`/lab-orders/${weddingGuid}`);
  await expect(page.getByRole('region', { name: 'SUMMARY' }).getByText('CANCELLED', { exact: true })).toBeVisible();
  // The page writes what it read into the list's copy once it is shown; a reload before that
  // (the next goto) would leave the copy as it was.
  await expect
    .poll(async () => (await idbRows<{ guid: string; listed?: { status?: string } }>(page, 'orders')).find((o) => o.guid === weddingGuid)?.listed?.status)
    .toBe('cancelled');

  await page.goto(`/lab-orders/${cart.orderGuid}/review`);
  const items = page.getByRole('list', { name: 'Line items' }).getByRole('listitem');
  await expect(items).toHaveCount(3);

  // On a train: three changes to the cart, kept on the device.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Increase quantity of RED_0001.jpg' }).click();
  await page.getByRole('button', { name: 'Increase quantity of BLUE_0002.jpg' }).click();
  await page.getByRole('button', { name: 'Delete GREEN_0003.jpg' }).click();
  await expect(items).toHaveCount(2);
  await expect(status(page)).toContainText('3 changes waiting to be sent');
  await expect(page.getByRole('complementary', { name: 'ORDER SUMMARY' })).toContainText('3 changes are waiting to be sent');
  await page.screenshot({ path: test.info().outputPath('cart-offline.png') });

  await page.getByRole('link', { name: 'ORDERS', exact: true }).click();
  await expect(page.getByText(/You are offline\. These are your orders as of/)).toBeVisible();
  await expect(page.getByText('2 of 2 orders')).toBeVisible();
  await expect(page.getByRole('article', { name: cartName }).getByText('OPEN', { exact: true })).toBeVisible();
  await expect(page.getByRole('article', { name: wedding }).getByText('CANCELLED', { exact: true })).toBeVisible();
  await expect(status(page)).toContainText('3 changes waiting to be sent');
  for (const width of [375, 1366]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: test.info().outputPath(`orders-offline-${width}.png`), fullPage: true });
  }
});
