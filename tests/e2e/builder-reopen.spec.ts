/**
 * Issue 11: a line item added offline, with the browser then closed before any connection came
 * back, reaches the lab when the browser opens again on the same profile — once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type APIRequestContext, type BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';
import { addButton, localItems, photosOfSize, tile } from './builder-fixtures.ts';
import { choose, signIn, storedToken } from './helpers.ts';
import { photoDir } from './upload-fixtures.ts';

const atLab = async (request: APIRequestContext, token: string, orderGuid: string): Promise<string[]> => {
  const answer = await request.get(`/api/v2/lab_orders/${orderGuid}/retrieve_full_order`, { headers: { token } });
  const body = (await answer.json()) as { data: { line_items: { guid: string; quantity: number }[] } };
  return body.data.line_items.map((l) => `${l.guid} ${l.quantity}`);
};

test('a line item added offline, the browser closed, arrives once the browser opens again', async ({ baseURL, request }) => {
  // Two browser starts, an upload and the service worker's precache on a busy machine.
  test.setTimeout(180_000);
  const profile = mkdtempSync(join(tmpdir(), 'lab-e2e-profile-'));
  const dir = photoDir();
  const open = (): Promise<BrowserContext> => chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, baseURL });

  let context = await open();
  let page = context.pages()[0] ?? (await context.newPage());
  const who = { email: `reopen-${randomBytes(4).toString('hex')}@studio.example`, password: 'platinum-print-7' };
  const created = await page.request.post('/api/v2/users', {
    data: { email: who.email, first_name: 'Berenice', last_name: 'Abbott', password: who.password, password_confirmation: who.password },
  });
  expect(created.ok()).toBe(true);
  await page.goto('/login');
  await signIn(page, who);
  const token = (await storedToken(page)) ?? '';

  await page.goto('/lab-orders/upload');
  await page.getByLabel('Order Name', { exact: true }).fill(`Reopen ${randomBytes(4).toString('hex')}`);
  await page.getByRole('button', { name: 'SAVE AND UPLOAD' }).click();
  await expect(page).toHaveURL(/\/lab-orders\/[^/]+\/upload-progress$/);
  const orderGuid = /\/lab-orders\/([^/]+)\/upload-progress$/.exec(page.url())?.[1] ?? '';
  await page.getByLabel('SELECT PHOTOS TO UPLOAD').setInputFiles(await photosOfSize(dir, [{ name: 'NYC_0001.jpg', width: 3000, height: 2400 }]));
  await expect(page.getByText('1 of 1 photos uploaded')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('link', { name: 'SELECT PRODUCTS' }).click();
  await expect(page).toHaveURL(`/lab-orders/${orderGuid}/edit/order-builder`);
  // Choosing the paper online keeps its sizes' finishing on the device for later.
  await tile(page, 'NYC_0001.jpg').click();
  await choose(page, 'PAPER', 'Lustre');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });

  // On the train: no connection. The line item is kept on the device, waiting.
  await context.setOffline(true);
  await page.reload();
  await tile(page, 'NYC_0001.jpg').click();
  await choose(page, 'PAPER', 'Lustre');
  await choose(page, 'PRINT SIZE', '8x10');
  await addButton(page).click();
  await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Looks Good' }).click();
  await expect(page).toHaveURL(`/lab-orders/${orderGuid}/review`);
  const kept = await localItems(page, orderGuid);
  expect(kept).toHaveLength(1);
  await expect(page.getByRole('status', { name: 'Connection and sync' })).toContainText('1 change waiting to be sent');
  await context.close();
  expect(await atLab(request, token, orderGuid)).toEqual([]);

  // The next morning, with a connection: the app opens on its list and the change goes.
  context = await open();
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto('/lab-orders');
  await expect.poll(() => atLab(request, token, orderGuid), { timeout: 60_000 }).toEqual([`${kept[0]?.guid} 1`]);
  await expect(page.getByRole('status', { name: 'Connection and sync' })).toContainText('All changes sent');
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});
