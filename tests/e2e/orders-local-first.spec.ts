/**
 * Issue 13: the orders list is the device's (local-first): it reads the orders table in
 * IndexedDB, and the lab's answers only fill it. Against the real lab: an order made elsewhere
 * shows after a refresh, one deleted elsewhere goes (from the screen and from the table), and with
 * the network cut a reload still lists the orders the device has.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { idbRows, signIn } from './helpers.ts';

interface Row {
  guid: string;
  owner: string;
  listed?: { order_name: string };
}

const listedNames = async (page: Page) => (await idbRows<Row>(page, 'orders')).flatMap((r) => (r.listed ? [r.listed.order_name] : [])).sort();

test('orders made elsewhere show after a refresh, orders deleted elsewhere go, and offline the list shows what the device has', async ({ page, context }) => {
  test.setTimeout(90_000);
  const tag = randomBytes(4).toString('hex');
  const who = { email: `local-first-${tag}@studio.example`, password: 'platinum-print-7' };
  const signup = await page.request.post('/api/v2/users', { data: { email: who.email, first_name: 'Imogen', last_name: 'Cunningham', password: who.password, password_confirmation: who.password } });
  expect(signup.ok(), await signup.text()).toBe(true);
  await page.goto('/login');
  await signIn(page, who);
  const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
  // Another tab or device of the same photographer: the lab's API itself.
  const make = async (name: string) => {
    const res = await page.request.post('/api/v2/lab_orders', { headers: { token }, data: { order_name: name } });
    expect(res.ok(), await res.text()).toBe(true);
    return ((await res.json()) as { data: { attributes: { guid: string } } }).data.attributes.guid;
  };
  const [first, second] = [`Portraits ${tag}`, `Botanicals ${tag}`];
  const firstGuid = await make(first);
  await page.goto('/lab-orders');
  await expect(page.getByRole('article', { name: first })).toBeVisible();
  await expect(page.getByText('1 of 1 orders')).toBeVisible();

  await make(second);
  await page.reload();
  await expect(page.getByRole('article', { name: second })).toBeVisible();
  await expect(page.getByRole('article', { name: first })).toBeVisible();
  await expect(page.getByText('2 of 2 orders')).toBeVisible();
  await expect.poll(() => listedNames(page)).toEqual([second, first].sort());

  const gone = await page.request.delete(`/api/v2/lab_orders/${firstGuid}`, { headers: { token } });
  expect(gone.ok(), await gone.text()).toBe(true);
  await page.reload();
  await expect(page.getByRole('article', { name: second })).toBeVisible();
  await expect(page.getByRole('article', { name: first })).toHaveCount(0);
  await expect(page.getByText('1 of 1 orders')).toBeVisible();
  await expect.poll(() => listedNames(page)).toEqual([second]);

  // Under the service worker (the app's shell offline), with the network cut: the device's orders.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  await expect(page.getByRole('article', { name: second })).toBeVisible();
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText(/You are offline\. These are your orders as of/)).toBeVisible();
  await expect(page.getByRole('article', { name: second })).toBeVisible();
  await expect(page.getByRole('article', { name: first })).toHaveCount(0);
  await expect(page.getByText('1 of 1 orders')).toBeVisible();

  // Back online, the lab is asked again and the notice goes.
  await context.setOffline(false);
  await expect(page.getByText(/These are your orders as of/)).toHaveCount(0);
  await expect(page.getByRole('article', { name: second })).toBeVisible();
});
