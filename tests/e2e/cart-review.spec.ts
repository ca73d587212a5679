/**
 * Issue 11, the cart review and the cart preview (docs/orders.md §2 Cart review, Cart preview, §4, §5)
 * against the real lab: each test makes a photographer and an order with uploaded photos, puts
 * line items in through the lab's API, and after each change on screen checks through the API
 * that the lab holds exactly what the screen shows.
 */
import { expect, test, type Page } from '@playwright/test';
import { CART_CLEARED, NO_LINE_ITEMS, ORDER_NOT_OPEN_TO_CHECKOUT } from '../../src/app/routes.ts';
import { CHECKING_CROPPED_IMAGE, CLEAR_CART_CONFIRM } from '../../src/client-rules/cart-review.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { GONE_TEXT } from '../../src/offline/sent-marks.ts';
import { PHOTO_COLOURS, addLineItems, atLab, cartWithPhotos, expectLabMatchesScreen, onScreen, type LabCart } from './cart-fixtures.ts';
import { DEMO_ADMIN } from './helpers.ts';
import { WIDTHS, expectAccessible } from './screens.ts';

// An upload, a sign-up and the lab's answers on a machine shared with other runs.
test.setTimeout(120_000);

const dollars = (amount: number) => formatMoney(Math.round(amount * 100));
const items = (page: Page) => page.getByRole('list', { name: 'Line items' }).getByRole('listitem');
const box = (page: Page, label: string) =>
  page
    .getByRole('complementary', { name: 'ORDER SUMMARY' })
    .locator('.figure-row')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');

/** The checkout box shows the lab's own figures. */
async function expectLabFigures(page: Page, lab: LabCart): Promise<void> {
  await expect(box(page, 'SUBTOTAL')).toHaveText(dollars(lab.subtotal));
  await expect(box(page, 'SHIPPING')).toHaveText(dollars(lab.shipping));
  await expect(box(page, 'TOTAL')).toHaveText(dollars(lab.total));
}

test('quantity arrows, delete and the checkout box follow the cart, and the lab holds the same', async ({ page, request }) => {
  const cart = await cartWithPhotos(page, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'BLUE_0002.jpg', colour: 'blue' },
    { name: 'GREEN_0003.jpg', colour: 'green' },
  ]);
  await addLineItems(request, cart, [
    { photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10', mat: true, notes: 'Warm it up a little' },
    { photo: 'BLUE_0002.jpg', paper: 'Canvas - Black Wrap', size: '16x20', quantity: 2 },
    { photo: 'GREEN_0003.jpg', paper: 'Metallic', size: '5x7' },
  ]);
  await page.goto(`/lab-orders/${cart.orderGuid}/review`);
  await expect(page.getByRole('heading', { level: 1, name: 'CART' })).toBeVisible();
  await expect(items(page)).toHaveCount(3);

  const first = items(page).filter({ hasText: 'Lustre' });
  await expect(first.getByText('8x10')).toBeVisible();
  await expect(first.getByText(/^4-PLY MAT: /)).toBeVisible();
  await expect(first.getByText('Warm it up a little')).toBeVisible();
  await expect(first.getByRole('img', { name: /^RED_0001\.jpg/ })).toBeVisible();
  await expectLabFigures(page, await atLab(request, cart));
  expect(await onScreen(page)).toEqual((await atLab(request, cart)).items);

  const quantity = page.getByLabel('Quantity of RED_0001.jpg', { exact: true }).locator('output');
  await expect(quantity).toHaveText('1');
  await expect(page.getByRole('button', { name: 'Decrease quantity of RED_0001.jpg' })).toBeDisabled();
  const before = await atLab(request, cart);
  await page.getByRole('button', { name: 'Increase quantity of RED_0001.jpg' }).click();
  await expect(quantity).toHaveText('2');
  await expectLabMatchesScreen(page, request, cart);
  const raised = await atLab(request, cart);
  // One more Lustre 8x10 with its mat: the subtotal rises by the line's price each.
  expect(raised.subtotal).toBeGreaterThan(before.subtotal);
  await expectLabFigures(page, raised);

  await page.getByRole('button', { name: 'Decrease quantity of BLUE_0002.jpg' }).click();
  await expect(page.getByLabel('Quantity of BLUE_0002.jpg', { exact: true }).locator('output')).toHaveText('1');
  await expectLabMatchesScreen(page, request, cart);
  await expectLabFigures(page, await atLab(request, cart));

  await page.getByRole('button', { name: 'Delete GREEN_0003.jpg' }).click();
  await expect(items(page)).toHaveCount(2);
  await expectLabMatchesScreen(page, request, cart);
  expect((await atLab(request, cart)).items).toEqual(['BLUE_0002.jpg × 1', 'RED_0001.jpg × 2']);
  await expectLabFigures(page, await atLab(request, cart));

  // The device keeps the changes, and a reload reads the lab's cart: the same.
  await page.reload();
  await expect(items(page)).toHaveCount(2);
  await expect(quantity).toHaveText('2');
  await expectLabFigures(page, await atLab(request, cart));

  await page.getByRole('button', { name: 'ORDER MORE' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${cart.orderGuid}/edit/order-builder$`));
});

test('CLEAR CART asks first, then goes to the builder with its notice, and the lab cart is empty', async ({ page, request }) => {
  const cart = await cartWithPhotos(page, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'BLUE_0002.jpg', colour: 'blue' },
  ]);
  await addLineItems(request, cart, [
    { photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10' },
    { photo: 'BLUE_0002.jpg', paper: 'Matte', size: '5x7' },
  ]);
  await page.goto(`/lab-orders/${cart.orderGuid}/review`);
  await expect(items(page)).toHaveCount(2);

  await page.getByRole('button', { name: 'CLEAR CART' }).click();
  const dialog = page.getByRole('dialog', { name: 'CLEAR CART' });
  await expect(dialog).toContainText(CLEAR_CART_CONFIRM);
  await dialog.getByRole('button', { name: 'CANCEL' }).click();
  await expect(dialog).toBeHidden();
  await expect(items(page)).toHaveCount(2);
  expect((await atLab(request, cart)).items).toHaveLength(2);

  await page.getByRole('button', { name: 'CLEAR CART' }).click();
  await dialog.getByRole('button', { name: 'YES, CLEAR CART' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${cart.orderGuid}/edit/order-builder$`));
  await expect(page.getByText(CART_CLEARED)).toBeVisible();
  await expect.poll(async () => (await atLab(request, cart)).items, { timeout: 20_000 }).toEqual([]);
});

test("an empty cart goes to the builder with 'You have no line items!'", async ({ page }) => {
  const cart = await cartWithPhotos(page, [{ name: 'RED_0001.jpg', colour: 'red' }]);
  await page.goto(`/lab-orders/${cart.orderGuid}/review`);
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${cart.orderGuid}/edit/order-builder$`));
  await expect(page.getByText(NO_LINE_ITEMS)).toBeVisible();
});

test('checkout needs a connection and says so; a change made offline reaches the lab when it is back', async ({ page, context, request }) => {
  const cart = await cartWithPhotos(page, [{ name: 'RED_0001.jpg', colour: 'red' }]);
  await addLineItems(request, cart, [{ photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10' }]);
  const one = await atLab(request, cart);
  await page.goto(`/lab-orders/${cart.orderGuid}/review`);
  const checkout = page.getByRole('button', { name: 'CHECKOUT' });
  await expect(checkout).toBeEnabled();
  await context.setOffline(true);
  await expect(page.getByText(/^Checkout needs a connection\./)).toBeVisible();
  await expect(checkout).toBeDisabled();
  // The cart itself still works offline; the lab has not heard of it yet.
  await page.getByRole('button', { name: 'Increase quantity of RED_0001.jpg' }).click();
  await expect(box(page, 'SUBTOTAL')).toHaveText(dollars(one.subtotal * 2));
  expect((await atLab(request, cart)).items).toEqual(['RED_0001.jpg × 1']);
  await context.setOffline(false);
  await expect(checkout).toBeEnabled();
  await expectLabMatchesScreen(page, request, cart);
  await expectLabFigures(page, await atLab(request, cart));
  await checkout.click();
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${cart.orderGuid}/checkout-details$`));
});

test('a change the lab refuses is shown with its reason and the way on, never dropped silently', async ({ page, context, request }) => {
  const cart = await cartWithPhotos(page, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'BLUE_0002.jpg', colour: 'blue' },
  ]);
  const [red] = await addLineItems(request, cart, [
    { photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10' },
    { photo: 'BLUE_0002.jpg', paper: 'Matte', size: '5x7' },
  ]);
  await page.goto(`/lab-orders/${cart.orderGuid}/review`);
  await expect(items(page)).toHaveCount(2);

  // On this device, offline: one more of the red print. Meanwhile, from another device, the red
  // line item is deleted at the lab.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Increase quantity of RED_0001.jpg' }).click();
  await expect(page.getByLabel('Quantity of RED_0001.jpg', { exact: true }).locator('output')).toHaveText('2');
  const gone = await request.delete(`/api/v2/line_items/${red}`, { headers: { token: cart.token } });
  expect(gone.ok()).toBe(true);
  await context.setOffline(false);

  // The lab refuses the quantity: the row stays as the user left it, with what happened and
  // what to do, said once.
  const row = items(page).filter({ hasText: 'Lustre' });
  const refusal = row.getByRole('alert');
  await expect(refusal).toBeVisible({ timeout: 20_000 });
  await expect(refusal).toContainText(`The lab refused this change: ${GONE_TEXT}`);
  expect((await refusal.innerText()).match(/refused/g)).toHaveLength(1);
  // Nothing is left at the lab to edit: only DISMISS is offered.
  await expect(refusal.getByRole('link', { name: 'EDIT LINE ITEM' })).toHaveCount(0);
  await expect(refusal.getByRole('button', { name: 'DISMISS' })).toBeVisible();
  await expect(page.getByLabel('Quantity of RED_0001.jpg', { exact: true }).locator('output')).toHaveText('2');
  // Still there after the review reads the lab's cart again.
  await page.reload();
  await expect(items(page).filter({ hasText: 'Lustre' }).getByRole('alert')).toBeVisible();
  expect((await atLab(request, cart)).items).toEqual(['BLUE_0002.jpg × 1']);

  // Dismissed: the review shows the cart as the lab has it, from the device alone (offline, no
  // read of the lab can tidy up after it), and the figures without the gone line item.
  await context.setOffline(true);
  await items(page).filter({ hasText: 'Lustre' }).getByRole('button', { name: 'DISMISS' }).click();
  await expect(items(page)).toHaveCount(1);
  expect(await onScreen(page)).toEqual((await atLab(request, cart)).items);
  await expect(box(page, 'SUBTOTAL')).toHaveText(dollars((await atLab(request, cart)).subtotal));
  await context.setOffline(false);
  await page.reload();
  await expect(items(page)).toHaveCount(1);
  await expectLabFigures(page, await atLab(request, cart));
});

/** The canvas's pixel at (fx, fy), as fractions of its size, or pixels from an edge (negative: from the right/bottom). */
const pixel = (page: Page, x: number, y: number) =>
  page.locator('canvas.preview-canvas').evaluate(
    (el, { px, py }) => {
      const c = el as HTMLCanvasElement;
      const at = (v: number, size: number) => (v > 0 && v < 1 ? Math.round(v * size) : v < 0 ? size + v : v);
      const [r = 0, g = 0, b = 0, a = 0] = c.getContext('2d')?.getImageData(at(px, c.width), at(py, c.height), 1, 1).data ?? [];
      return { r, g, b, a, width: c.width, height: c.height };
    },
    { px: x, py: y },
  );
const near = (p: { r: number; g: number; b: number }, c: { r: number; g: number; b: number }) => Math.abs(p.r - c.r) + Math.abs(p.g - c.g) + Math.abs(p.b - c.b);

test('the preview draws the chosen line item with its paper’s effect, and switches from the strip', async ({ page, context, request }) => {
  const cart = await cartWithPhotos(page, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'BLUE_0002.jpg', colour: 'blue' },
    { name: 'GREEN_0003.jpg', colour: 'green' },
    { name: 'SPLIT_0004.jpg', colour: 'split' },
  ]);
  const [, , flat] = await addLineItems(request, cart, [
    { photo: 'RED_0001.jpg', paper: 'Canvas - Black Wrap', size: '16x20' },
    { photo: 'BLUE_0002.jpg', paper: 'Canvas - Gallery Wrap', size: '16x24' },
    { photo: 'GREEN_0003.jpg', paper: 'Lustre', size: '8x10' },
    { photo: 'SPLIT_0004.jpg', paper: 'Canvas - Mirror Wrap', size: '12x18' },
  ]);
  await page.goto(`/lab-orders/${cart.orderGuid}/review`);
  await page.getByRole('link', { name: 'Preview RED_0001.jpg' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'CART PREVIEW' })).toBeVisible();
  const canvas = page.locator('canvas.preview-canvas');
  await expect(canvas).toHaveAttribute('data-status', 'drawn');
  await expect(canvas).toHaveAttribute('data-effect', 'black');
  // The red photo in the middle, black sides round it.
  const centre = await pixel(page, 0.5, 0.5);
  expect(centre.a).toBe(255);
  expect(near(centre, PHOTO_COLOURS.red)).toBeLessThan(30);
  for (const [x, y] of [[3, 0.5], [-3, 0.5], [0.5, 3], [0.5, -3]] as const) {
    const edge = await pixel(page, x, y);
    expect(edge.r + edge.g + edge.b, `edge at ${x},${y}`).toBeLessThan(60);
  }

  await page.getByRole('button', { name: /^BLUE_0002\.jpg/ }).click();
  await expect(canvas).toHaveAttribute('data-effect', 'gallery');
  await expect(canvas).toHaveAttribute('data-status', 'drawn');
  // A gallery wrap folds the picture's own edge round: the sides are the photo, in shadow.
  const face = await pixel(page, 0.5, 0.5);
  const side = await pixel(page, 2, 0.5);
  expect(face.b).toBeGreaterThan(180);
  expect(side.b).toBeLessThan(face.b - 30);
  expect(side.b).toBeGreaterThan(side.r);

  await page.getByRole('button', { name: /^GREEN_0003\.jpg/ }).click();
  await expect(canvas).toHaveAttribute('data-effect', 'flat');
  await expect(canvas).toHaveAttribute('data-status', 'drawn');
  expect((await pixel(page, 1, 1)).g).toBeGreaterThan(150);
  expect(page.url()).toContain(`item=${flat}`);

  // A mirror wrap flips the picture's own edge outwards: red beside the red half, blue beside the blue.
  await page.getByRole('button', { name: /^SPLIT_0004\.jpg/ }).click();
  await expect(canvas).toHaveAttribute('data-effect', 'mirror');
  await expect(canvas).toHaveAttribute('data-status', 'drawn');
  const left = await pixel(page, 3, 0.5);
  const right = await pixel(page, -3, 0.5);
  expect(left.r).toBeGreaterThan(left.b + 80);
  expect(right.b).toBeGreaterThan(right.r + 80);

  // Offline it still opens from the device's copy.
  await context.setOffline(true);
  await page.getByRole('link', { name: 'BACK TO CART' }).click();
  await expect(items(page)).toHaveCount(4);
  await page.getByRole('link', { name: 'Preview RED_0001.jpg' }).click();
  await expect(canvas).toHaveAttribute('data-effect', 'black');
  await expect(page.getByRole('navigation', { name: 'Line items' }).getByRole('button')).toHaveCount(4);
  await context.setOffline(false);
});

test('the review and the preview hold up at 1280, 375 and 320 px', async ({ page, request }) => {
  const cart = await cartWithPhotos(page, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'BLUE_0002.jpg', colour: 'blue' },
  ]);
  await addLineItems(request, cart, [
    { photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10', mat: true, notes: 'Match the print to the proof we sent last week, please.' },
    { photo: 'BLUE_0002.jpg', paper: 'Canvas - Mirror Wrap', size: '16x20', quantity: 3 },
  ]);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/lab-orders/${cart.orderGuid}/review`);
    await expect(items(page)).toHaveCount(2);
    await expectAccessible(page, '/lab-orders/review');
    await page.getByRole('button', { name: 'CLEAR CART' }).click();
    await expectAccessible(page, '/lab-orders/review with the clear-cart dialog');
    await page.getByRole('button', { name: 'CANCEL' }).click();
    await page.goto(`/cart-preview/${cart.orderGuid}`);
    await expect(page.locator('canvas.preview-canvas')).toHaveAttribute('data-status', 'drawn');
    await expectAccessible(page, '/cart-preview');
  }
});

test.describe('answers the lab cannot be made to give from a browser', () => {
  // page.route sees only what the page itself asks for: a service worker would answer first.
  test.use({ serviceWorkers: 'block' });

  test('a line item waits for its cropped image: looked for again after 4 s, at most twice', async ({ page, request }) => {
    const cart = await cartWithPhotos(page, [
      { name: 'RED_0001.jpg', colour: 'red' },
      { name: 'BLUE_0002.jpg', colour: 'blue' },
    ]);
    await addLineItems(request, cart, [
      { photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10' },
      { photo: 'BLUE_0002.jpg', paper: 'Matte', size: '5x7' },
    ]);
    // The lab's crop job usually finishes before the review first asks, so the checking state
    // could not be seen: the real answers pass through with photograph_cropped_url withheld for
    // RED until the second read and for BLUE always (a job that never comes).
    await expect.poll(async () => {
      const answer = await request.get(`/api/v2/lab_orders/${cart.orderGuid}/retrieve_full_order`, { headers: { token: cart.token } });
      return ((await answer.json()) as { data: { line_items: { photograph_cropped_url: string | null }[] } }).data.line_items.every((l) => l.photograph_cropped_url);
    }, { timeout: 30_000, message: 'the lab has cropped both photos' }).toBe(true);
    let reads = 0;
    let lastReader = '';
    // With or without paging (the device reads its cart a page at a time).
    await page.route(`**/api/v2/lab_orders/${cart.orderGuid}/retrieve_full_order*`, async (route) => {
      reads += 1;
      lastReader = route.request().headers()['x-read-by'] ?? 'app';
      const answer = await route.fetch();
      const body = (await answer.json()) as { data: { line_items: { photo_file_name: string; photograph_cropped_url: string | null }[] } };
      for (const item of body.data.line_items) if (item.photo_file_name === 'BLUE_0002.jpg' || reads < 2) item.photograph_cropped_url = null;
      await route.fulfill({ response: answer, json: body });
    });
    // The page's timers run on Playwright's clock: in real time, until the test moves it on.
    await page.clock.install();
    await page.goto(`/lab-orders/${cart.orderGuid}/review`);
    const checking = page.getByText(CHECKING_CROPPED_IMAGE);
    await expect(checking).toHaveCount(2);
    await expect(checking).toHaveCount(1, { timeout: 8_000 });
    await expect(page.getByRole('listitem', { name: 'RED_0001.jpg' }).getByRole('img')).toHaveAttribute('src', /cropped/);
    // After the second re-check the review stops asking (and stops saying it is checking).
    await expect(checking).toHaveCount(0, { timeout: 8_000 });
    expect(reads).toBe(3);
    // A minute of the page's time at once: every wait the review could have set has run out. Then
    // a read of the test's own, through the same route: the review asked for nothing before it.
    await page.clock.runFor(60_000);
    await page.evaluate(
      ([url, token]) => fetch(url, { headers: { token, 'x-read-by': 'test' } }).then(() => undefined),
      [`/api/v2/lab_orders/${cart.orderGuid}/retrieve_full_order`, cart.token] as const,
    );
    expect(lastReader).toBe('test');
    expect(reads).toBe(4);
  });

  test('a closed order goes to its page with the bad-status notice', async ({ page, request }) => {
    const cart = await cartWithPhotos(page, [{ name: 'RED_0001.jpg', colour: 'red' }]);
    await addLineItems(request, cart, [{ photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10' }]);
    // The lab moves the order on (an admin's status change) while the cart is on this device.
    const login = await request.post('/api/v2/login', { data: DEMO_ADMIN });
    const { token } = (await login.json()) as { token: string };
    expect((await request.patch(`/api/v2/lab_orders/${cart.orderGuid}`, { headers: { token }, data: { type: 'status', value: 'printing', reason: 'Test print' } })).ok()).toBe(true);
    await page.goto(`/lab-orders/${cart.orderGuid}/review`);
    await expect(page).toHaveURL(new RegExp(`/lab-orders/${cart.orderGuid}$`));
    await expect(page.getByText(ORDER_NOT_OPEN_TO_CHECKOUT)).toBeVisible();
  });
});
