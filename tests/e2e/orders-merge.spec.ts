/**
 * Issue 13 against the real lab: a photographer deletes an open order from the list (the spec's
 * warning first), and an admin merges two open orders of one photographer through the list's
 * merge action and the merge review (docs/orders.md §2, §4, §5).
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { DELETE_ORDER_CONFIRM } from '../../src/features/orders/order-actions.ts';
import { addLineItems, cartWithPhotos } from './cart-fixtures.ts';
import { signIn } from './helpers.ts';
import { WIDTHS, expectAccessible } from './screens.ts';

// An upload, a sign-up and the lab's answers on a machine shared with other runs.
test.setTimeout(120_000);

test('a photographer deletes an open order after the warning; the lab no longer has it', async ({ page }) => {
  const cart = await cartWithPhotos(page, [{ name: 'RED_0001.jpg', colour: 'red' }]);
  const name = (await (await page.request.get(`/api/v2/lab_orders/${cart.orderGuid}`, { headers: { token: cart.token } })).json()) as { data: { attributes: { order_name: string } } };
  const orderName = name.data.attributes.order_name;
  await page.goto('/lab-orders');
  const card = page.getByRole('article', { name: orderName });
  await card.getByRole('button', { name: `Delete order ${orderName}` }).click();
  const dialog = page.getByRole('dialog', { name: 'DELETE ORDER' });
  await expect(dialog).toContainText(DELETE_ORDER_CONFIRM);
  await expectAccessible(page, 'delete order warning');
  await dialog.getByRole('button', { name: 'DELETE' }).click();
  await expect(card).toHaveCount(0);
  await expect(page.getByText('No lab orders yet. Start one with NEW LAB ORDER.')).toBeVisible();
  const gone = await page.request.get(`/api/v2/lab_orders/${cart.orderGuid}`, { headers: { token: cart.token } });
  expect(gone.status()).toBe(404);
});

test('an admin merges two open orders of one photographer: MERGE, the second card, Looks good?, Merge', async ({ page, browser }) => {
  const cart = await cartWithPhotos(page, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'BLUE_0002.jpg', colour: 'blue' },
  ]);
  await addLineItems(page.request, cart, [{ photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10' }]);
  const first = ((await (await page.request.get(`/api/v2/lab_orders/${cart.orderGuid}`, { headers: { token: cart.token } })).json()) as { data: { attributes: { order_name: string } } }).data.attributes.order_name;
  // The second order: the same photos again (REORDER), with a second print added.
  const second = `Reprint ${randomBytes(4).toString('hex')}`;
  const again = await page.request.post(`/api/v2/lab_orders/${cart.orderGuid}/reorder`, { headers: { token: cart.token }, data: { order_name: second } });
  expect(again.status(), await again.text()).toBe(201);
  const secondGuid = ((await again.json()) as { data: { attributes: { guid: string } } }).data.attributes.guid;
  // The reorder's photos are its own rows (sharing the stored files): their guids by file name.
  const listed = (await (await page.request.get(`/api/v2/lab_orders/${secondGuid}/lab_order_photographs?per_page=100`, { headers: { token: cart.token } })).json()) as {
    data: { guid: string; photo_file_name: string }[];
  };
  const secondPhotos = new Map(listed.data.map((p) => [p.photo_file_name, p.guid]));
  await addLineItems(page.request, { ...cart, orderGuid: secondGuid, photos: secondPhotos }, [{ photo: 'BLUE_0002.jpg', paper: 'Metallic', size: '5x7', quantity: 2 }]);

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/login');
  await signIn(admin);
  // Open orders are hidden after load; RESET shows them.
  await admin.getByRole('group', { name: 'Filters' }).getByRole('button', { name: 'RESET' }).click();
  await admin.getByRole('searchbox', { name: 'Search by Order Name or Status' }).fill(first);
  await admin.getByRole('article', { name: first }).getByRole('button', { name: 'MERGE', exact: true }).click();
  await admin.getByRole('searchbox', { name: 'Search by Order Name or Status' }).fill(second);
  await admin.getByRole('article', { name: second }).getByRole('button', { name: `MERGE INTO ${first}` }).click();
  await expect(admin).toHaveURL(new RegExp(`/lab-orders/${cart.orderGuid}/merge-order/${secondGuid}/review$`));

  await expect(admin.getByRole('heading', { level: 1, name: 'MERGE ORDERS' })).toBeVisible();
  await expect(admin.getByRole('article', { name: `KEEPS: ${first}` })).toBeVisible();
  await expect(admin.getByRole('article', { name: `MERGED INTO IT, THEN REMOVED: ${second}` })).toBeVisible();
  await expect(admin.getByText('Looks good?')).toBeVisible();
  for (const width of WIDTHS) {
    await admin.setViewportSize({ width, height: 900 });
    await expectAccessible(admin, `merge review at ${width}`);
  }
  await admin.getByRole('button', { name: 'Merge' }).click();
  await expect(admin).toHaveURL(/\/lab-orders$/);

  // The lab: the second order is gone; the first holds every line item, each photo once.
  const gone = await page.request.get(`/api/v2/lab_orders/${secondGuid}`, { headers: { token: cart.token } });
  expect(gone.status()).toBe(404);
  const kept = (await (await page.request.get(`/api/v2/lab_orders/${cart.orderGuid}/retrieve_full_order`, { headers: { token: cart.token } })).json()) as {
    data: { line_items: { photo_file_name: string; quantity: number }[] };
  };
  expect(kept.data.line_items.map((l) => `${l.photo_file_name} × ${l.quantity}`).sort()).toEqual(['BLUE_0002.jpg × 2', 'RED_0001.jpg × 1', 'RED_0001.jpg × 1']);
  const photos = (await (await page.request.get(`/api/v2/lab_orders/${cart.orderGuid}/lab_order_photographs?per_page=100`, { headers: { token: cart.token } })).json()) as { data: unknown[] };
  expect(photos.data).toHaveLength(2);
  await adminContext.close();
});
