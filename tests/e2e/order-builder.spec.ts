/**
 * Issue 11, the order builder and the line-item edit (docs/orders.md §2 Order builder, §4, §5): a
 * photographer with an uploaded order builds a framed print, a mat and a canvas with the cropper;
 * the gating alerts; the crop check before the first line item; the resolution warning and
 * confirmation with a small photo; the merge rule; UPDATE of a line item.
 *
 * The line items are read back from the device store (the builder writes them there at once and
 * the store sends them): the `lineItems` table of the app's database.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { choose, combo, listOf, optionsOf, signIn, storedToken } from './helpers.ts';
import { expectAccessible } from './screens.ts';
import { photoDir } from './upload-fixtures.ts';
import { addButton, localItems, photosOfSize, tile } from './builder-fixtures.ts';

const CROP_CHECK = 'WAIT! Before adding to cart, check your cropping selections on all photos.';
const SELECT_PHOTO_FIRST = 'Please select at least one photo to begin.';
const PAPER_FIRST = 'You must select a Paper Type first.';
const PAPER_AND_SIZE_FIRST = 'You must select a Paper Type and Print Size first.';
const INCOMPLETE = /^Please select all finishing details/;

/** The message of the window alert a click raises. */
async function alertOf(page: Page, click: () => Promise<void>): Promise<string> {
  // Accepted inside the handler: an open alert blocks the page, and with it the click.
  const shown = new Promise<string>((resolve) =>
    page.once('dialog', (d) => {
      resolve(d.message());
      void d.accept();
    }),
  );
  await click();
  return shown;
}

test.describe.serial('order builder', () => {
  let page: Page;
  let orderGuid = '';
  let dir = '';

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    // A context of its own (axe-core needs one made with newContext).
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    const who = { email: `builder-${randomBytes(4).toString('hex')}@studio.example`, password: 'platinum-print-7' };
    const created = await page.request.post('/api/v2/users', {
      data: { email: who.email, first_name: 'Imogen', last_name: 'Cunningham', password: who.password, password_confirmation: who.password },
    });
    expect(created.ok()).toBe(true);
    await page.goto('/login');
    await signIn(page, who);

    // Three photos large enough for 8x10 at 250 ppi, and one too small for it.
    dir = photoDir();
    const files = await photosOfSize(dir, [
      { name: 'BIG_0001.jpg', width: 3000, height: 2000 },
      { name: 'BIG_0002.jpg', width: 3000, height: 2000 },
      { name: 'BIG_0003.jpg', width: 3000, height: 2000 },
      { name: 'IMG_0004.jpg', width: 640, height: 427 },
    ]);
    await page.goto('/lab-orders/upload');
    await page.getByLabel('Order Name', { exact: true }).fill(`Builder ${randomBytes(4).toString('hex')}`);
    await page.getByRole('button', { name: 'SAVE AND UPLOAD' }).click();
    await expect(page).toHaveURL(/\/lab-orders\/[^/]+\/upload-progress$/);
    orderGuid = /\/lab-orders\/([^/]+)\/upload-progress$/.exec(page.url())?.[1] ?? '';
    await page.getByLabel('SELECT PHOTOS TO UPLOAD').setInputFiles(files);
    await expect(page.getByText('4 of 4 photos uploaded')).toBeVisible({ timeout: 60_000 });
    await page.getByRole('link', { name: 'SELECT PRODUCTS' }).click();
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/edit/order-builder`);
  });

  test.afterAll(async () => {
    await page.context().close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the layout, SELECT ALL / RESET / toggle, and the gating alerts', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'ORDER BUILDER' })).toBeVisible();
    await expect(page.getByText('SELECT A PHOTO TO BEGIN')).toBeVisible();
    await expect(page.getByRole('link', { name: 'UPLOAD MORE' })).toHaveAttribute('href', `/lab-orders/${orderGuid}/upload-progress`);
    await expect(page.getByRole('link', { name: 'VIEW CART (0)' })).toHaveAttribute('href', `/lab-orders/${orderGuid}/review`);
    await expect(page.getByRole('link', { name: 'CHECKOUT' })).toHaveAttribute('href', `/lab-orders/${orderGuid}/checkout-details`);
    await expect(page.getByText('SUBTOTAL')).toBeVisible();
    // In the order of the numbers in their names.
    const names = await page.getByRole('region', { name: 'Photos of this order' }).getByRole('button', { name: /\.jpg$/ }).evaluateAll((b) => b.map((x) => x.getAttribute('aria-label')));
    expect(names).toEqual(['BIG_0001.jpg', 'BIG_0002.jpg', 'BIG_0003.jpg', 'IMG_0004.jpg']);
    await expectAccessible(page, 'order builder, nothing selected');

    expect(await alertOf(page, () => combo(page, 'PAPER').click({ force: true }))).toBe(SELECT_PHOTO_FIRST);

    await page.getByRole('button', { name: 'SELECT ALL' }).click();
    await expect(page.getByText('4 of 4 selected')).toBeVisible();
    await expect(page.getByRole('list', { name: '4 selected photos' })).toBeVisible();
    await page.getByRole('button', { name: 'RESET' }).click();
    await expect(page.getByText('0 of 4 selected')).toBeVisible();
    await tile(page, 'BIG_0002.jpg').click();
    await tile(page, 'BIG_0002.jpg').click();
    await expect(tile(page, 'BIG_0002.jpg')).toHaveAttribute('aria-pressed', 'false');

    await tile(page, 'BIG_0001.jpg').click();
    await expect(tile(page, 'BIG_0001.jpg')).toHaveAttribute('aria-pressed', 'true');
    expect(await alertOf(page, () => combo(page, 'PRINT SIZE').click({ force: true }))).toBe(PAPER_FIRST);
    expect(await alertOf(page, () => combo(page, 'FINISHING').click({ force: true }))).toBe(PAPER_AND_SIZE_FIRST);
    await expect(addButton(page)).toHaveCount(0);

    // A new paper resets the print size and every finishing choice.
    await choose(page, 'PAPER', 'Lustre');
    await choose(page, 'PRINT SIZE', '8x10');
    await choose(page, 'FINISHING', 'MOUNT');
    await expect(combo(page, 'MOUNT SIZE')).toBeVisible();
    // docs/orders.md §9: lists 400 px tall at most, 50 px for the mount size, 150 px wide.
    for (const [label, maxHeight] of [['PAPER', '400px'], ['MOUNT SIZE', '50px']] as const) {
      await combo(page, label).click();
      const size = await listOf(page, label).evaluate((el) => ({ maxHeight: getComputedStyle(el).maxHeight, width: el.getBoundingClientRect().width }));
      expect(size).toEqual({ maxHeight, width: 150 });
      await page.keyboard.press('Escape');
    }
    await choose(page, 'PAPER', 'Matte');
    await expect(combo(page, 'PRINT SIZE')).toHaveText('Choose…');
    await expect(combo(page, 'MOUNT SIZE')).toHaveCount(0);
    await expect(addButton(page)).toHaveCount(0);
  });

  test('a framed print: the finishing dropdowns one after another, the incomplete-finishing alert, the crop check before the first line item', async () => {
    await choose(page, 'PAPER', 'Lustre');
    await expect(combo(page, 'BORDER')).toBeVisible();
    await choose(page, 'PRINT SIZE', '8x10');
    // 3000x2000 cropped to 10x8 is 2500x2000 pixels: 250 ppi.
    // (83.33 % of 3000 is 2499.9 pixels: the figure shown is rounded down.)
    await expect(page.getByText(/^Effective resolution: (249|250) ppi$/)).toBeVisible();
    await choose(page, 'FINISHING', 'HARDWOOD FRAME');
    await expect(combo(page, 'FRAME MAT')).toHaveCount(0);
    expect(await alertOf(page, () => addButton(page).click())).toMatch(INCOMPLETE);
    await choose(page, 'FRAME WOOD', 'Walnut 1.5"');
    await choose(page, 'FRAME MAT', 'White 4-Ply Mat');
    expect(await alertOf(page, () => addButton(page).click())).toMatch(INCOMPLETE);
    await choose(page, 'ACRYLIC', 'ACRYLIC');
    await choose(page, 'FRAME STAIN', 'Espresso');
    await page.getByLabel(/^NOTES/).fill('Please sign the back.');

    await addButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
    await expect(dialog).toContainText(CROP_CHECK);
    await expectAccessible(page, 'order builder, crop check');
    await dialog.getByRole('button', { name: 'Check Crop' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/edit/order-builder`);

    await addButton(page).click();
    await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Looks Good' }).click();
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/review`);
    const items = await localItems(page, orderGuid);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ imageName: 'BIG_0001.jpg', quantity: 1, notes: 'Please sign the back.' });
    // The centred 10x8 crop of a 3:2 photo, in percent with 2 decimals.
    // As the cropper measured it on screen: within half a percent.
    const crop = items[0]?.cropAttributes;
    expect(crop?.x).toBeCloseTo(8.33, 0);
    expect(crop?.y).toBeCloseTo(0, 0);
    expect(crop?.width).toBeCloseTo(83.33, 0);
    expect(crop?.height).toBeCloseTo(100, 0);
  });

  test('a mat and a canvas with the cropper; the photo in the cart is dimmed; the low-resolution warning and confirmation; the merge rule', async () => {
    await page.goto(`/lab-orders/${orderGuid}/edit/order-builder`);
    await expect(page.getByRole('link', { name: 'VIEW CART (1)' })).toBeVisible();
    await expect(tile(page, 'BIG_0001.jpg')).toContainText('ADDED TO CART');

    // A mat: MAT SIZE only (the class is never asked). Zooming in lowers the resolution.
    await tile(page, 'BIG_0002.jpg').click();
    await choose(page, 'PAPER', 'Lustre');
    await choose(page, 'PRINT SIZE', '8x10');
    await choose(page, 'FINISHING', '4-PLY MAT');
    await choose(page, 'MAT SIZE', '11x14 Mat');
    await expect(combo(page, 'MAT CLASS')).toHaveCount(0);
    await page.getByLabel('ZOOM').fill('2');
    await expect(page.getByText(/^Effective resolution: 12[45] ppi/)).toBeVisible();
    await expect(page.getByText(/Low resolution: this crop prints at 12[45] ppi at 8x10/)).toBeVisible();
    // A warning, not a question: the mat goes straight in (no crop check: the cart has a line item).
    await addButton(page).click();
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/review`);
    const mat = (await localItems(page, orderGuid)).find((l) => l.imageName === 'BIG_0002.jpg');
    expect(mat?.cropAttributes.width).toBeCloseTo(41.67, 0);

    // A canvas: 16x24 on a gallery wrap is cut from 20x28, in the photo's landscape orientation.
    await page.goto(`/lab-orders/${orderGuid}/edit/order-builder`);
    await tile(page, 'BIG_0003.jpg').click();
    await choose(page, 'PAPER', 'Canvas - Gallery Wrap');
    await expect(combo(page, 'BORDER')).toHaveCount(0);
    await choose(page, 'PRINT SIZE', '16x24');
    const area = page.getByTestId('cropper');
    await expect(area).toBeVisible();
    const box = await area.boundingBox();
    expect((box?.width ?? 0) / (box?.height ?? 1)).toBeCloseTo(28 / 20, 1);
    await page.getByRole('button', { name: 'FLIP ORIENTATION' }).click();
    await expect.poll(async () => {
      const b = await area.boundingBox();
      return Math.round(((b?.width ?? 0) / (b?.height ?? 1)) * 100) / 100;
    }).toBeCloseTo(20 / 28, 1);
    // Upright, the 20x28 crop of a 3:2 photo is far too small: 71 ppi.
    await expect(page.getByText(/^Effective resolution: 7\d ppi/)).toBeVisible();
    // 12x18 is the photo's own shape: the whole photo at 166 ppi, a warning only.
    await choose(page, 'PRINT SIZE', '12x18');
    await expect.poll(async () => {
      const b = await area.boundingBox();
      return Math.round(((b?.width ?? 0) / (b?.height ?? 1)) * 100) / 100;
    }).toBeCloseTo(1.5, 1);
    await expect(page.getByText(/^Effective resolution: 166 ppi/)).toBeVisible();
    await choose(page, 'FINISHING', 'NONE');
    await addButton(page).click();
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/review`);
    const canvas = (await localItems(page, orderGuid)).find((l) => l.imageName === 'BIG_0003.jpg');
    expect(canvas?.finishingServiceGuid).toBeNull();
    // The whole photo (the domain's centred crop rounds its side down to stay inside the photo).
    expect(canvas?.cropAttributes.width).toBeCloseTo(100, 0);
    expect(canvas?.cropAttributes.height).toBeCloseTo(100, 0);

    // Brushed Canvas must be finished: NONE is not offered, and the alert says so.
    await page.goto(`/lab-orders/${orderGuid}/edit/order-builder`);
    await tile(page, 'BIG_0003.jpg').click();
    await choose(page, 'PAPER', 'Brushed Canvas');
    await choose(page, 'PRINT SIZE', '8x10');
    expect(await optionsOf(page, 'FINISHING')).not.toContain('NONE');
    expect(await alertOf(page, () => addButton(page).click())).toMatch(/^Brushed Canvas must be finished/);
    await page.getByRole('button', { name: 'RESET' }).click();

    // A small photo: 640x427 at 8x10 is 53 ppi; adding asks first.
    await tile(page, 'IMG_0004.jpg').click();
    await choose(page, 'PAPER', 'Lustre');
    await choose(page, 'PRINT SIZE', '8x10');
    await expect(page.getByText(/^Effective resolution: 53 ppi/)).toBeVisible();
    await addButton(page).click();
    const question = page.getByRole('dialog', { name: 'Low resolution' });
    await expect(question).toContainText('Very low resolution: this crop prints at only 53 ppi at 8x10');
    await question.getByRole('button', { name: 'CANCEL' }).click();
    await expect(question).toHaveCount(0);
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/edit/order-builder`);
    await addButton(page).click();
    await page.getByRole('dialog', { name: 'Low resolution' }).getByRole('button', { name: 'ADD ANYWAY' }).click();
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/review`);
    expect(await localItems(page, orderGuid)).toHaveLength(4);

    // The mat again: the same photo, print size and finishing raises its quantity by 1.
    await page.goto(`/lab-orders/${orderGuid}/edit/order-builder`);
    await tile(page, 'BIG_0002.jpg').click();
    await choose(page, 'PAPER', 'Lustre');
    await choose(page, 'PRINT SIZE', '8x10');
    await choose(page, 'FINISHING', '4-PLY MAT');
    await choose(page, 'MAT SIZE', '11x14 Mat');
    await page.getByLabel('QUANTITY').fill('3');
    await addButton(page).click();
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/review`);
    const after = await localItems(page, orderGuid);
    expect(after).toHaveLength(4);
    expect(after.find((l) => l.imageName === 'BIG_0002.jpg')?.quantity).toBe(2);
  });

  test('editing a line item: its choices are loaded, UPDATE changes that line item', async () => {
    const framed = (await localItems(page, orderGuid)).find((l) => l.imageName === 'BIG_0001.jpg');
    expect(framed).toBeDefined();
    await page.goto(`/lab-orders/${orderGuid}/edit/order-builder/line-item/${framed?.guid ?? ''}`);
    await expect(page.getByRole('heading', { level: 1, name: 'EDIT LINE ITEM' })).toBeVisible();
    await expect(combo(page, 'PAPER')).toHaveText('Lustre');
    await expect(combo(page, 'FRAME STAIN')).toHaveText(/^Espresso/);
    await expect(page.getByLabel(/^NOTES/)).toHaveValue('Please sign the back.');
    await expect(addButton(page)).toHaveCount(0);
    await expectAccessible(page, 'line-item edit');
    await choose(page, 'FRAME STAIN', 'Gray Wash');
    await page.getByRole('button', { name: 'One more' }).click();
    await page.getByRole('button', { name: 'One more' }).click();
    await expect(page.getByLabel('QUANTITY')).toHaveValue('3');
    // No crop check when updating.
    await page.getByRole('button', { name: 'UPDATE', exact: true }).click();
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/review`);
    const items = await localItems(page, orderGuid);
    expect(items).toHaveLength(4);
    expect(items.find((l) => l.guid === framed?.guid)).toMatchObject({ quantity: 3, notes: 'Please sign the back.' });
  });

  test('offline: the builder opens from the device (catalogue, photos, cart) and adds a line item', async () => {
    await page.goto(`/lab-orders/${orderGuid}/edit/order-builder`);
    // The service worker precaches the whole client first: slow on a busy machine.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });
    const before = (await localItems(page, orderGuid)).length;
    await page.context().setOffline(true);
    try {
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'ORDER BUILDER' })).toBeVisible();
      await expect(page.getByRole('link', { name: `VIEW CART (${before})` })).toBeVisible();
      await tile(page, 'IMG_0004.jpg').click();
      // 5x7 was never opened: its finishing was kept in the background while the builder was open online.
      await choose(page, 'PAPER', 'Lustre');
      await choose(page, 'PRINT SIZE', '5x7');
      // The cropper shows this device's own thumbnail of the photo.
      await expect(page.getByTestId('cropper')).toBeVisible();
      await expect(page.getByRole('img', { name: 'IMG_0004.jpg' })).toHaveAttribute('src', /^blob:/);
      await choose(page, 'FINISHING', 'MOUNT');
      await choose(page, 'MOUNT SIZE', '5x7 Flush Mount');
      await choose(page, 'MOUNT COLOR', 'White');
      await addButton(page).click();
      // 640x427 at 5x7 is 85 ppi: asked first.
      await page.getByRole('dialog', { name: 'Low resolution' }).getByRole('button', { name: 'ADD ANYWAY' }).click();
      await expect(page).toHaveURL(`/lab-orders/${orderGuid}/review`);
      expect(await localItems(page, orderGuid)).toHaveLength(before + 1);
      // Still offline, on the review: one more of the new print, and the mat deleted.
      const mounted = page.getByRole('listitem', { name: 'IMG_0004.jpg' }).filter({ hasText: 'MOUNT' });
      await mounted.getByRole('button', { name: 'Increase quantity of IMG_0004.jpg' }).click();
      await page.getByRole('button', { name: 'Delete BIG_0002.jpg' }).click();
      await expect(page.getByRole('listitem', { name: 'BIG_0002.jpg' })).toHaveCount(0);
      // The app opens offline and shows every change made.
      await page.reload();
      await expect(mounted.getByRole('status', { name: 'Quantity of IMG_0004.jpg' })).toHaveText('2');
      await expect(page.getByRole('listitem', { name: 'BIG_0002.jpg' })).toHaveCount(0);
      await page.goto(`/lab-orders/${orderGuid}/edit/order-builder`);
      await expect(tile(page, 'IMG_0004.jpg')).toContainText('waiting to be sent');
    } finally {
      await page.context().setOffline(false);
    }
    // Online again: the lab holds exactly what the device shows, each line item once.
    const shown = async () =>
      (await localItems(page, orderGuid))
        .filter((l) => !(l as { deleted?: boolean }).deleted)
        .map((l) => `${l.guid} ${l.quantity}`)
        .sort();
    const expected = await shown();
    expect(expected).toHaveLength(before);
    const token = (await storedToken(page)) ?? '';
    const atLab = async () => {
      const answer = await page.request.get(`/api/v2/lab_orders/${orderGuid}/retrieve_full_order`, { headers: { token } });
      const body = (await answer.json()) as { data: { line_items: { guid: string; quantity: number }[] } };
      return body.data.line_items.map((l) => `${l.guid} ${l.quantity}`).sort();
    };
    await expect.poll(atLab, { timeout: 30_000 }).toEqual(expected);
    await expect(page.getByRole('status', { name: 'Connection and sync' })).toContainText('All changes sent');
  });

  test('at 375 px: one column, nothing sideways, fingertip-sized controls', async () => {
    // A notice the review sends along shows once.
    await page.goto(`/lab-orders/${orderGuid}/edit/order-builder?notice=no_line_items`);
    await expect(page.getByText('You have no line items!')).toBeVisible();
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/edit/order-builder`);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`/lab-orders/${orderGuid}/edit/order-builder`);
    await expect(page.getByText('SELECT A PHOTO TO BEGIN')).toBeVisible();
    await expectAccessible(page, 'order builder at 375');
    await tile(page, 'BIG_0003.jpg').click();
    await choose(page, 'PAPER', 'Lustre');
    await choose(page, 'PRINT SIZE', '8x10');
    await expect(page.getByTestId('cropper')).toBeVisible();
    await expectAccessible(page, 'order builder at 375 with the cropper');
  });
});
