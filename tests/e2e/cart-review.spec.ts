import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { CART_CLEARED, CHECKING_CROPPED_IMAGE, CLEAR_CART_CONFIRM, NO_LINE_ITEMS, ORDER_NOT_OPEN_TO_CHECKOUT } from '../../src/domain/cart-review.ts';
import { PHOTO_COLOURS, fakeLab, lineItem, type FakeLab } from './cart-fake-lab.ts';
import { signIn, storedToken } from './helpers.ts';
import { WIDTHS, expectAccessible } from './screens.ts';

// The fake lab answers through page.route, which a service worker would get to first.
test.use({ serviceWorkers: 'block' });

const MAT = {
  finishing_category: 'four_ply_mat' as const,
  finishing_service: '11x14 mat',
  finishing_service_guid: 'mat-1',
  finishing_service_detail: null,
  finishing_service_detail_guid: null,
  finishing_service_detail_two_guid: null,
  finishing_service_detail_three_guid: null,
  formatted_frame_profile: null,
  formatted_detail_one: 'White',
  formatted_detail_two: null,
  formatted_detail_three: null,
  price: 30,
};

/** Signs in as the demo admin and makes a real open order, whose cart the fake lab plays. */
async function openCart(page: Page, items: FakeLab['items'], order: Partial<FakeLab['order']> = {}): Promise<FakeLab> {
  await page.goto('/login');
  await signIn(page);
  const token = (await storedToken(page)) ?? '';
  const name = `Cart ${randomBytes(4).toString('hex')}`;
  const created = await page.request.post('/api/v2/lab_orders', { headers: { token }, data: { order_name: name } });
  const guid = ((await created.json()) as { data: { attributes: { guid: string } } }).data.attributes.guid;
  return fakeLab(page, {
    order: { guid, order_name: name, status: 'open', discount: 0, credit_applied: 0, shipping_total: 10, boutique_shipping: false, boutique_shipping_price: 0, ...order },
    items,
    reads: 0,
  });
}

const box = (page: Page, label: string) =>
  page
    .getByRole('complementary', { name: 'ORDER SUMMARY' })
    .locator('.checkout-row')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');

test('quantity arrows, delete and the checkout box follow the cart at once', async ({ page }) => {
  const lustre = lineItem({ paper: 'Lustre', size: '8x10', print: 12, colour: 'red', finishing: MAT, notes: 'Warm it up a little' });
  const canvas = lineItem({ paper: 'Canvas - Black Wrap', size: '16x20', print: 80, colour: 'blue', quantity: 2 });
  const metallic = lineItem({ paper: 'Metallic', size: '5x7', print: 5, colour: 'green' });
  const lab = await openCart(page, [lustre, canvas, metallic], { discount: 5 });
  await page.goto(`/lab-orders/${lab.order.guid}/review`);
  await expect(page.getByRole('heading', { level: 1, name: 'CART' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Line items' }).getByRole('listitem');
  await expect(items).toHaveCount(3);

  const first = items.filter({ hasText: 'Lustre' });
  await expect(first.getByText('8x10')).toBeVisible();
  await expect(first.getByText('4-PLY MAT: 11x14 mat · White')).toBeVisible();
  await expect(first.getByText('Warm it up a little')).toBeVisible();
  await expect(first.getByRole('img', { name: new RegExp(`^${lustre.photo_file_name}`) })).toBeVisible();

  // (12 + 30) × 1 + 80 × 2 + 5 = 207; less the $5 discount, plus $10 shipping.
  await expect(box(page, 'SUBTOTAL')).toHaveText('$207.00');
  await expect(box(page, 'DISCOUNT')).toHaveText('-$5.00');
  await expect(box(page, 'SHIPPING')).toHaveText('$10.00');
  await expect(box(page, 'TOTAL')).toHaveText('$212.00');

  const quantity = page.getByLabel(`Quantity of ${lustre.photo_file_name}`, { exact: true }).locator('output');
  await expect(quantity).toHaveText('1');
  await expect(page.getByRole('button', { name: `Decrease quantity of ${lustre.photo_file_name}` })).toBeDisabled();
  await page.getByRole('button', { name: `Increase quantity of ${lustre.photo_file_name}` }).click();
  await expect(quantity).toHaveText('2');
  await expect(first.getByText('$84.00')).toBeVisible();
  await expect(box(page, 'SUBTOTAL')).toHaveText('$249.00');
  await expect(box(page, 'TOTAL')).toHaveText('$254.00');
  await page.getByRole('button', { name: `Decrease quantity of ${canvas.photo_file_name}` }).click();
  await expect(page.getByLabel(`Quantity of ${canvas.photo_file_name}`, { exact: true }).locator('output')).toHaveText('1');
  await expect(box(page, 'SUBTOTAL')).toHaveText('$169.00');

  await page.getByRole('button', { name: `Delete ${metallic.photo_file_name}` }).click();
  await expect(items).toHaveCount(2);
  await expect(box(page, 'SUBTOTAL')).toHaveText('$164.00');
  await expect(box(page, 'TOTAL')).toHaveText('$169.00');

  // The device keeps the changes: a reload shows the same cart.
  await page.reload();
  await expect(items).toHaveCount(2);
  await expect(quantity).toHaveText('2');

  await page.getByRole('button', { name: 'ORDER MORE' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${lab.order.guid}/edit/order-builder$`));
});

test('CLEAR CART asks first, then goes to the builder with its notice', async ({ page }) => {
  const lab = await openCart(page, [lineItem({ paper: 'Lustre', size: '8x10', print: 12, colour: 'red' }), lineItem({ paper: 'Matte', size: '5x7', print: 5, colour: 'blue' })]);
  await page.goto(`/lab-orders/${lab.order.guid}/review`);
  const items = page.getByRole('list', { name: 'Line items' }).getByRole('listitem');
  await expect(items).toHaveCount(2);

  await page.getByRole('button', { name: 'CLEAR CART' }).click();
  const dialog = page.getByRole('dialog', { name: 'CLEAR CART' });
  await expect(dialog).toContainText(CLEAR_CART_CONFIRM);
  await dialog.getByRole('button', { name: 'CANCEL' }).click();
  await expect(dialog).toBeHidden();
  await expect(items).toHaveCount(2);

  await page.getByRole('button', { name: 'CLEAR CART' }).click();
  await dialog.getByRole('button', { name: 'YES, CLEAR CART' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${lab.order.guid}/edit/order-builder$`));
  await expect(page.getByText(CART_CLEARED)).toBeVisible();
});

test("an empty cart goes to the builder with 'You have no line items!', a closed order to its page", async ({ page }) => {
  const lab = await openCart(page, []);
  await page.goto(`/lab-orders/${lab.order.guid}/review`);
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${lab.order.guid}/edit/order-builder$`));
  await expect(page.getByText(NO_LINE_ITEMS)).toBeVisible();

  lab.items = [lineItem({ paper: 'Lustre', size: '8x10', print: 12, colour: 'red' })];
  lab.order.status = 'paid';
  await page.goto(`/lab-orders/${lab.order.guid}/review`);
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${lab.order.guid}$`));
  await expect(page.getByText(ORDER_NOT_OPEN_TO_CHECKOUT)).toBeVisible();
});

test('a line item waits for its cropped image: looked for again after 4 s, at most twice', async ({ page }) => {
  const soon = lineItem({ paper: 'Lustre', size: '8x10', print: 12, colour: 'red', cropped: false });
  const never = lineItem({ paper: 'Matte', size: '5x7', print: 5, colour: 'blue', cropped: false });
  const lab = await openCart(page, [soon, never]);
  // The lab's crop job finishes one photo by the first re-check; the other's never comes.
  lab.onRead = (reads) => {
    if (reads === 2) soon.photograph_cropped_url = '/test-photos/red-cropped.png';
  };
  await page.goto(`/lab-orders/${lab.order.guid}/review`);
  const checking = page.getByText(CHECKING_CROPPED_IMAGE);
  await expect(checking).toHaveCount(2);
  await expect(checking).toHaveCount(1, { timeout: 8_000 });
  await expect(page.getByRole('listitem', { name: soon.photo_file_name }).getByRole('img')).toHaveAttribute('src', /red-cropped/);
  // After the second re-check the review stops asking (and stops saying it is checking).
  await expect(checking).toHaveCount(0, { timeout: 8_000 });
  expect(lab.reads).toBe(3);
  await page.waitForTimeout(5_000);
  expect(lab.reads).toBe(3);
});

test('checkout needs a connection and says so', async ({ page, context }) => {
  const lab = await openCart(page, [lineItem({ paper: 'Lustre', size: '8x10', print: 12, colour: 'red' })]);
  await page.goto(`/lab-orders/${lab.order.guid}/review`);
  const checkout = page.getByRole('button', { name: 'CHECKOUT' });
  await expect(checkout).toBeEnabled();
  await context.setOffline(true);
  await expect(page.getByText(/^Checkout needs a connection\./)).toBeVisible();
  await expect(checkout).toBeDisabled();
  // The cart itself still works offline.
  await page.getByRole('button', { name: /^Increase quantity of/ }).click();
  await expect(box(page, 'SUBTOTAL')).toHaveText('$24.00');
  await context.setOffline(false);
  await expect(checkout).toBeEnabled();
  await checkout.click();
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${lab.order.guid}/checkout-details$`));
});

/** The canvas's pixel at (x, y), counted from the right/bottom when negative. */
const pixel = (page: Page, x: number, y: number) =>
  page.locator('canvas.preview-canvas').evaluate(
    (el, { px, py }) => {
      const c = el as HTMLCanvasElement;
      const cx = px < 0 ? c.width + px : px;
      const cy = py < 0 ? c.height + py : py;
      const [r = 0, g = 0, b = 0, a = 0] = c.getContext('2d')?.getImageData(cx, cy, 1, 1).data ?? [];
      return { r, g, b, a, width: c.width, height: c.height };
    },
    { px: x, py: y },
  );

test('the preview draws the chosen line item with its paper’s effect, and switches from the strip', async ({ page, context }) => {
  const black = lineItem({ paper: 'Canvas - Black Wrap', size: '16x20', print: 80, colour: 'red' });
  const gallery = lineItem({ paper: 'Canvas - Gallery Wrap', size: '16x24', print: 90, colour: 'blue' });
  const flat = lineItem({ paper: 'Lustre', size: '8x10', print: 12, colour: 'green' });
  const mirror = lineItem({ paper: 'Canvas - Mirror Wrap', size: '12x18', print: 60, colour: 'split' });
  const lab = await openCart(page, [black, gallery, flat, mirror]);
  await page.goto(`/lab-orders/${lab.order.guid}/review`);
  await page.getByRole('link', { name: `Preview ${black.photo_file_name}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'CART PREVIEW' })).toBeVisible();
  const canvas = page.locator('canvas.preview-canvas');
  await expect(canvas).toHaveAttribute('data-status', 'drawn');
  await expect(canvas).toHaveAttribute('data-effect', 'black');

  // A 600x400 photo drawn at its size, with 16 + 4 = 20 px black sides round it.
  const red = PHOTO_COLOURS.red;
  const centre = await pixel(page, 320, 220);
  expect(centre).toMatchObject({ width: 640, height: 440, a: 255 });
  expect(Math.abs(centre.r - red.r) + Math.abs(centre.g - red.g) + Math.abs(centre.b - red.b)).toBeLessThan(12);
  for (const [x, y] of [[5, 220], [-5, 220], [320, 5], [320, -5]] as const) {
    const edge = await pixel(page, x, y);
    expect(edge.r + edge.g + edge.b, `edge at ${x},${y}`).toBeLessThan(60);
  }

  await page.getByRole('button', { name: new RegExp(`^${gallery.photo_file_name}`) }).click();
  await expect(canvas).toHaveAttribute('data-effect', 'gallery');
  await expect(canvas).toHaveAttribute('data-status', 'drawn');
  // A gallery wrap folds the picture's own edge round: the sides are the photo, in shadow.
  const face = await pixel(page, 300, 200);
  const side = await pixel(page, 3, 200);
  expect(face).toMatchObject({ width: 600, height: 400 });
  expect(face.b).toBeGreaterThan(180);
  expect(side.b).toBeLessThan(face.b - 30);
  expect(side.b).toBeGreaterThan(side.r);

  await page.getByRole('button', { name: new RegExp(`^${flat.photo_file_name}`) }).click();
  await expect(canvas).toHaveAttribute('data-effect', 'flat');
  await expect(canvas).toHaveAttribute('data-status', 'drawn');
  const corner = await pixel(page, 1, 1);
  expect(corner.g).toBeGreaterThan(150);
  expect(page.url()).toContain(`item=${flat.guid}`);

  // A mirror wrap flips the picture's own edge outwards: red beside the red half, blue beside the blue.
  await page.getByRole('button', { name: new RegExp(`^${mirror.photo_file_name}`) }).click();
  await expect(canvas).toHaveAttribute('data-effect', 'mirror');
  await expect(canvas).toHaveAttribute('data-status', 'drawn');
  const left = await pixel(page, 4, 200);
  const right = await pixel(page, -4, 200);
  expect(left).toMatchObject({ width: 600 + 2 * 16, height: 400 + 2 * 16 });
  expect(left.r).toBeGreaterThan(left.b + 80);
  expect(right.b).toBeGreaterThan(right.r + 80);

  // Offline it still opens from the device's copy.
  await context.setOffline(true);
  await page.getByRole('link', { name: 'BACK TO CART' }).click();
  await expect(page.getByRole('list', { name: 'Line items' }).getByRole('listitem')).toHaveCount(4);
  await page.getByRole('link', { name: `Preview ${black.photo_file_name}` }).click();
  await expect(canvas).toHaveAttribute('data-effect', 'black');
  await expect(page.getByRole('navigation', { name: 'Line items' }).getByRole('button')).toHaveCount(4);
  await context.setOffline(false);
});

test('the review and the preview hold up at 1280, 375 and 320 px', async ({ page }) => {
  const lab = await openCart(page, [
    lineItem({ paper: 'Lustre', size: '8x10', print: 12, colour: 'red', finishing: MAT, notes: 'Match the print to the proof we sent last week, please.' }),
    lineItem({ paper: 'Canvas - Mirror Wrap', size: '16x20', print: 80, colour: 'blue', quantity: 3 }),
  ]);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/lab-orders/${lab.order.guid}/review`);
    await expect(page.getByRole('list', { name: 'Line items' }).getByRole('listitem')).toHaveCount(2);
    await expectAccessible(page, '/lab-orders/review');
    await page.getByRole('button', { name: 'CLEAR CART' }).click();
    await expectAccessible(page, '/lab-orders/review with the clear-cart dialog');
    await page.getByRole('button', { name: 'CANCEL' }).click();
    await page.goto(`/cart-preview/${lab.order.guid}`);
    await expect(page.locator('canvas.preview-canvas')).toHaveAttribute('data-status', 'drawn');
    await expectAccessible(page, '/cart-preview');
  }
});
