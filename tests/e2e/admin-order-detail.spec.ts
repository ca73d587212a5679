/**
 * Issue 13, the admin panel of the order detail against the real lab (docs/orders.md §2, §6;
 * docs/api.md §6): flag and unflag urgent, tracking link, status with the shipped mail, admin
 * note, the history; and what the photographer then sees of it.
 */
import { expect, test, type Page } from '@playwright/test';
import { addLineItems, cartWithPhotos } from './cart-fixtures.ts';
import { holdRequests, lastMailTo, signIn, stillClock } from './helpers.ts';
import { WIDTHS, expectAccessible } from './screens.ts';

// An upload, a sign-up and the lab's answers on a machine shared with other runs.
// At 4 workers on 2 cores the first test's every step is slow alike (fills, navigations, the
// sweep at three widths) while none runs out of its own limit: the file's limit leaves room for that.
test.setTimeout(180_000);

const panel = (page: Page) => page.getByRole('complementary', { name: 'Admin panel' });

test('an admin flags, tracks, ships and notes an order; the photographer gets the mail and sees the link, never the note', async ({ page, browser }) => {
  const cart = await cartWithPhotos(page, [{ name: 'RED_0001.jpg', colour: 'red' }]);
  await addLineItems(page.request, cart, [{ photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10' }]);

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/login');
  await signIn(admin);
  await admin.goto(`/lab-orders/${cart.orderGuid}`);
  const tools = panel(admin);
  await expect(tools.getByText('Dorothea Lange')).toBeVisible();
  const email = (await tools.getByText(/@studio\.example$/).textContent()) ?? '';
  const profile = tools.getByRole('link', { name: 'PHOTOGRAPHER PAGE' });
  await expect(profile).toHaveAttribute('href', /^\/photographers\/[0-9a-f-]{36}$/);

  for (const width of WIDTHS) {
    await admin.setViewportSize({ width, height: 900 });
    await expectAccessible(admin, `admin order detail at ${width}`);
  }
  await admin.setViewportSize({ width: 1280, height: 900 });

  // Urgent, and back.
  await tools.getByRole('button', { name: 'FLAG URGENT' }).click();
  await expect(admin.getByText('URGENT', { exact: true })).toBeVisible();
  await expect(tools.getByRole('button', { name: 'UNFLAG URGENT' })).toBeVisible();
  await expect(tools.getByRole('region', { name: 'History' }).getByRole('listitem').first()).toContainText('Urgent');

  // A tracking link must be a full link.
  const tracking = tools.getByLabel('Tracking URL', { exact: true });
  await tracking.fill('track.example/1Z999');
  await tools.getByRole('button', { name: 'SAVE TRACKING' }).click();
  await expect(tools.getByRole('alert')).toHaveText('Enter the full tracking link, starting with https://.');
  await tracking.fill('https://track.example/1Z999');
  await tools.getByRole('button', { name: 'SAVE TRACKING' }).click();
  await expect(admin.getByRole('link', { name: 'TRACK THIS ORDER' })).toHaveAttribute('href', 'https://track.example/1Z999');

  // Shipped, though nobody paid: never by accident. The choice asks why; without a reason
  // nothing moves, KEEP leaves it open, and the reason given is kept in the history.
  const status = tools.getByLabel('Status', { exact: true });
  await status.selectOption('shipped');
  const why = tools.getByRole('form', { name: 'Reason for an unpaid order' });
  await expect(why).toContainText('This order is not paid yet. Say why it may go to shipped anyway');
  await why.getByRole('button', { name: 'KEEP OPEN' }).click();
  await expect(why).toHaveCount(0);
  await expect(status).toHaveValue('open');
  await status.selectOption('shipped');
  await why.getByRole('button', { name: 'SET SHIPPED' }).click();
  await expect(why.getByRole('alert')).toHaveText('Say why this unpaid order may go on.');
  await expect(why.getByRole('textbox', { name: 'Reason' })).toHaveAttribute('aria-invalid', 'true');
  await expect(admin.getByRole('region', { name: 'Summary' }).getByText('OPEN', { exact: true })).toBeVisible();
  await why.getByRole('textbox', { name: 'Reason' }).fill('Paid by bank transfer');
  await why.getByRole('button', { name: 'SET SHIPPED' }).click();
  // Shipped: the status shows, the history says who did it and why, the photographer is mailed the link.
  await expect(admin.getByRole('region', { name: 'Summary' }).getByText('SHIPPED', { exact: true })).toBeVisible();
  await expect(why).toHaveCount(0);
  await expect(tools.getByRole('region', { name: 'History' }).getByRole('listitem').first()).toContainText('Status: open → shipped (Paid by bank transfer)');
  await expect(tools.getByRole('region', { name: 'History' }).getByRole('listitem').first()).toContainText('Admin');
  const mail = await lastMailTo(email);
  expect(mail).toContain('has shipped');
  expect(mail).toContain('https://track.example/1Z999');
  // No longer open: no CONTINUE ORDER.
  await expect(admin.getByRole('link', { name: 'CONTINUE ORDER' })).toHaveCount(0);

  await tools.getByRole('textbox', { name: 'Admin note' }).fill('Reprint the left print: dust spot.');
  await tools.getByRole('button', { name: 'SAVE NOTE' }).click();
  await expect(tools.getByRole('region', { name: 'History' }).getByRole('listitem').first()).toContainText('Admin note changed');
  await admin.reload();
  await expect(panel(admin).getByRole('textbox', { name: 'Admin note' })).toHaveValue('Reprint the left print: dust spot.');
  await panel(admin).getByRole('button', { name: 'UNFLAG URGENT' }).click();
  await expect(panel(admin).getByRole('button', { name: 'FLAG URGENT' })).toBeVisible();
  await expect(admin.getByText('URGENT', { exact: true })).toHaveCount(0);

  // The photographer: the tracking link and the status, no admin panel, no admin note.
  await page.goto(`/lab-orders/${cart.orderGuid}`);
  await expect(page.getByRole('link', { name: 'TRACK THIS ORDER' })).toHaveAttribute('href', 'https://track.example/1Z999');
  await expect(page.getByText('SHIPPED', { exact: true })).toBeVisible();
  await expect(panel(page)).toHaveCount(0);
  await expect(page.getByText('dust spot')).toHaveCount(0);
  await adminContext.close();
});

test('the admin panel comes the moment its code is in, on a page clock that does not move', async ({ browser }) => {
  const signedIn = await browser.newContext();
  const first = await signedIn.newPage();
  await first.goto('/login');
  await signIn(first);
  const token = (await first.evaluate(() => localStorage.getItem('token'))) ?? '';
  const created = await first.request.post('/api/v2/lab_orders', { headers: { token }, data: { order_name: `Still clock ${Date.now()}` } });
  expect(created.status(), await created.text()).toBe(201);
  const guid = ((await created.json()) as { data: { attributes: { guid: string } } }).data.attributes.guid;

  // The same admin on a fresh visit, with no service worker, so the panel's code comes from the
  // network, where this test holds it. React shows a lazy part no sooner than 300 ms after its
  // fallback showed, by a timer: on a clock that stands still such a part never comes
  // (src/ui/use-module.ts).
  const context = await browser.newContext({ serviceWorkers: 'block', storageState: await signedIn.storageState() });
  await signedIn.close();
  await stillClock(context);
  const admin = await context.newPage();
  const release = await holdRequests(admin, /\/admin-panel-[^/]*\.js$/);
  await admin.goto(`/lab-orders/${guid}`);
  await expect(admin.getByText('loading the admin tools…')).toBeVisible();
  release();
  await expect(panel(admin).getByRole('button', { name: 'FLAG URGENT' })).toBeVisible();
  await context.close();
});
