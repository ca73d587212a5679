import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, LOGGED_OUT, ordersListLoaded, signIn, storedToken } from './helpers.ts';

test('the demo admin signs in and sees the orders list', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('status').filter({ hasText: 'Lab server online' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'RESET' })).toHaveAttribute('href', '/forgot-password');
  await expect(page.getByRole('link', { name: 'SIGN UP' })).toHaveAttribute('href', '/signup/1-of-3');
  await signIn(page);

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'NEW LAB ORDER' })).toHaveAttribute('href', '/lab-orders/upload');
  await expect(page.getByRole('searchbox', { name: 'Search by Order Name or Status' })).toBeVisible();
  await expect(ordersListLoaded(page)).toBeVisible();

  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['ORDERS', 'PRICING', 'CREDIT', 'PHOTOGRAPHERS', 'Account', 'Print lab home']) {
    await expect(nav.getByRole('link', { name })).toBeVisible();
  }
  await expect(nav.getByRole('button', { name: 'Log out' })).toBeVisible();

  const session = await page.evaluate(() => ({
    token: localStorage.getItem('token'),
    hash: localStorage.getItem('identity-hash'),
    email: localStorage.getItem('email'),
    name: localStorage.getItem('name'),
    business: localStorage.getItem('business-name'),
  }));
  expect(session).toMatchObject({ email: DEMO_ADMIN.email, name: 'Lab Admin', business: 'Print Lab' });
  expect(session.token).toBeTruthy();
  expect(session.hash).toMatch(/^[0-9a-f]{64}$/);
});

test("a wrong password shows the spec's message with the error codes", async ({ page }) => {
  await page.goto('/login');
  await signInExpectingFailure();

  async function signInExpectingFailure() {
    await page.getByLabel('Email').fill(DEMO_ADMIN.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'SIGN IN' }).click();
  }
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(
    'There was a problem with your email or password. Please try again or click RESET below if you have forgotten your password.',
  );
  await expect(alert).toContainText('ERROR CODE: 401');
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedToken(page)).toBeNull();
});

test('a signed-out visit to /account lands on /login and returns to /account after sign-in', async ({ page }) => {
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(LOGGED_OUT)).toHaveCount(0);
  await signIn(page);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'ACCOUNT', exact: true })).toBeVisible();
});

test("logout ends the session and shows 'You have been logged out!' in a closable top-right toast", async ({ page }) => {
  await page.goto('/login');
  await signIn(page);
  const token = await storedToken(page);
  await page.getByRole('button', { name: 'Log out' }).click();

  await expect(page).toHaveURL(/\/login$/);
  const toast = page.getByRole('status').filter({ hasText: LOGGED_OUT });
  await expect(toast).toBeVisible();
  const box = await toast.boundingBox();
  expect(box && box.x + box.width).toBeGreaterThan(1280 - 40);
  expect(box?.y).toBeLessThan(60);
  await toast.getByRole('button', { name: 'Close notification' }).click();
  await expect(toast).toHaveCount(0);

  expect(await storedToken(page)).toBeNull();
  // The server ended the session too: the old token no longer works.
  const res = await page.request.get('/api/v2/lab_orders', { headers: { token: token ?? '' } });
  expect(res.status()).toBe(401);
  await page.goto('/lab-orders');
  await expect(page).toHaveURL(/\/login$/);
});

test('a 401 from any call signs the user out', async ({ page }) => {
  // An admin's list asks once, with its filters on (and for urgent orders when there are some): the
  // session ends only once the list has settled, so that the refusal met is the Account screen's.
  let listCalls = 0;
  let lastSettled = Date.now();
  const isList = (url: string) => new URL(url).pathname === '/api/v2/lab_orders';
  page.on('request', (r) => {
    if (isList(r.url())) listCalls += 1;
  });
  const settled = (r: { url(): string }) => {
    if (!isList(r.url())) return;
    listCalls -= 1;
    lastSettled = Date.now();
  };
  page.on('requestfinished', settled);
  page.on('requestfailed', settled);
  // The urgent orders are asked for only once the list's answer says there are some, by a section
  // whose code loads then: on a loaded machine that can come well after the list has settled.
  const isUrgentList = (url: string) => isList(url) && new URL(url).searchParams.get('urgent') === 'true';
  const firstList = page.waitForResponse((r) => isList(r.url()) && !isUrgentList(r.url()));
  const urgentAnswer = page.waitForResponse((r) => isUrgentList(r.url()), { timeout: 30_000 }).catch(() => null);
  await page.goto('/login');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
  const urgentCount = ((await (await firstList).json()) as { meta?: { urgent_count?: number } }).meta?.urgent_count ?? 0;
  if (urgentCount > 0) expect(await urgentAnswer).not.toBeNull();
  await expect.poll(() => listCalls === 0 && Date.now() - lastSettled > 500).toBe(true);
  // The session ends elsewhere (another device, an admin, expiry); the next call answers 401.
  const token = await storedToken(page);
  expect((await page.request.delete('/api/v2/logout', { headers: { token: token ?? '' } })).status()).toBe(200);

  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(LOGGED_OUT)).toBeVisible();
  expect(await storedToken(page)).toBeNull();
  // Signing in again returns to where the user was.
  await signIn(page);
  await expect(page).toHaveURL(/\/account$/);
});

test.describe('without a service worker in the way of the interception', () => {
  test.use({ serviceWorkers: 'block' });

  test('a list that cannot reach the server, with no copy on this device, says so, and RELOAD recovers', async ({ page }) => {
    // The list's call, with or without the admin's filters in its query.
    const list = /\/api\/v2\/lab_orders(\?.*)?$/;
    await page.route(list, (route) => route.abort('internetdisconnected'));
    await page.goto('/login');
    await signIn(page);
    await expect(page.getByRole('alert')).toContainText(
      'ERROR LOADING: Something went wrong:Please check your internet connection and try again.',
    );
    await page.unroute(list);
    await page.getByRole('button', { name: 'RELOAD' }).click();
    await expect(ordersListLoaded(page)).toBeVisible();
  });
});
