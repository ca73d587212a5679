/**
 * Issue 13: REORDER on a past order makes a new open order with the same photos and line items,
 * without uploading anything again (the stored originals are shared), and opens it in the builder.
 * A name in use is refused in the lab's words, in the dialog.
 */
import { expect, test, type Request } from '@playwright/test';
import { adminToken, labOrder, paidShopper, photosOf } from './order-actions-fixtures.ts';
import { idbRows } from './helpers.ts';
import { expectAccessible } from './screens.ts';

test.setTimeout(120_000);

test('REORDER copies the photos and line items into a new open order, uploading nothing', async ({ page }) => {
  const shopper = await paidShopper(page);
  const { cart } = shopper;
  // Shipped, as most orders a photographer repeats are.
  const shipped = await page.request.patch(`/api/v2/lab_orders/${cart.orderGuid}`, { headers: { token: await adminToken(page.request) }, data: { type: 'status', value: 'shipped' } });
  expect(shipped.ok(), await shipped.text()).toBe(true);

  await page.goto(`/lab-orders/${cart.orderGuid}`);
  // Every PUT from here on (a photo or a part of one going to storage) would be an upload.
  const puts: string[] = [];
  const onRequest = (r: Request) => {
    if (r.method() === 'PUT') puts.push(r.url());
  };
  page.on('request', onRequest);
  await page.getByRole('button', { name: 'REORDER' }).click();
  const dialog = page.getByRole('dialog', { name: 'REORDER' });
  await expect(dialog).toContainText('nothing is uploaded again');
  const name = dialog.getByRole('textbox', { name: 'New order name' });
  await expect(name).toHaveValue(`${shopper.orderName} (reorder)`);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await expectAccessible(page, '/order-reorder-dialog');
  }
  await dialog.getByRole('button', { name: 'REORDER' }).click();

  await expect(page).toHaveURL(/\/lab-orders\/[^/]+\/edit\/order-builder$/);
  await expect(page.getByText(`${shopper.orderName} (reorder) is ready: 1 line item of 1 photo copied, nothing to upload.`)).toBeVisible();
  const newGuid = /\/lab-orders\/([^/]+)\/edit\/order-builder$/.exec(page.url())?.[1] ?? '';
  expect(newGuid).not.toBe(cart.orderGuid);
  await expect(page.getByRole('heading', { level: 1, name: 'ORDER BUILDER' })).toBeVisible();
  // Ready to edit: its photo in the strip and its line item in the cart.
  await expect(page.getByRole('region', { name: 'Photos of this order' }).getByRole('button', { name: /PORTRAIT_0001\.jpg$/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'VIEW CART (1)' })).toBeVisible();

  const before = await labOrder(page.request, cart.token, cart.orderGuid);
  const after = await labOrder(page.request, cart.token, newGuid);
  expect(after.status).toBe('open');
  expect(after.order_name).toBe(`${shopper.orderName} (reorder)`);
  const shape = (o: typeof before) =>
    o.line_items.map((l) => ({ photo: l.photo_file_name, size: l.print_size_attributes.print_size_guid, quantity: l.quantity, crop: l.photograph_attributes }));
  expect(shape(after)).toEqual(shape(before));
  expect((await photosOf(page.request, cart.token, newGuid)).map((p) => p.photo_file_name)).toEqual((await photosOf(page.request, cart.token, cart.orderGuid)).map((p) => p.photo_file_name));
  // The builder opened on the new order with its photos, and still nothing went up, nor is
  // anything queued on the device to go up later. ('networkidle' would prove nothing here: the
  // page's network was idle before the dialog, and a screen change within the page keeps it so.)
  expect(puts).toEqual([]);
  expect((await idbRows<{ orderGuid: string }>(page, 'uploads')).filter((u) => u.orderGuid === newGuid)).toEqual([]);
  page.off('request', onRequest);

  // The same name again: the lab's refusal, beside the field; nothing is made.
  await page.goto(`/lab-orders/${cart.orderGuid}`);
  await page.getByRole('button', { name: 'REORDER' }).click();
  await page.getByRole('dialog', { name: 'REORDER' }).getByRole('button', { name: 'REORDER' }).click();
  await expect(page.getByRole('dialog', { name: 'REORDER' }).getByRole('alert')).toHaveText('Order Name already taken. Please create a different Order Name.');
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${cart.orderGuid}$`));
  await page.getByRole('button', { name: 'CLOSE' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
