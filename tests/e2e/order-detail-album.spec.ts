/**
 * Issue 13, album orders on the order detail (docs/orders.md §1 "custom album orders are shown
 * read-only", §2 "line-item and album cards have a photo modal", §3 Album), against the real lab:
 * the lab enters an album from the order's photos, the photographer reads it and opens its photos.
 */
import { expect, test } from '@playwright/test';
import { formatMoney } from '../../src/domain/money.ts';
import { addLineItems, atLab, cartWithPhotos } from './cart-fixtures.ts';
import { signIn, storedToken } from './helpers.ts';
import { WIDTHS, expectAccessible } from './screens.ts';

// An upload, a sign-up and the lab's answers on a machine shared with other runs.
test.setTimeout(120_000);

test('a custom album shows read-only with its make, cover text and price, and its photos open large', async ({ page, browser, request }) => {
  const cart = await cartWithPhotos(page, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'GREEN_0003.jpg', colour: 'green' },
  ]);
  await addLineItems(request, cart, [{ photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10' }]);
  const before = await atLab(request, cart);

  // The lab enters the album it designed with the photographer.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/login');
  await signIn(admin);
  const adminToken = (await storedToken(admin)) ?? '';
  const added = await admin.request.post(`/api/v2/lab_orders/${cart.orderGuid}/album_line_items`, {
    headers: { token: adminToken },
    data: {
      description: 'Wedding album, lay-flat',
      outer_fabric_name: 'Black linen',
      inner_fabric_name: 'Ivory',
      spread_quantity: 15,
      stamping: 'Gold foil',
      upper_text_value: 'Ada & Grace',
      upper_text_font_size: 24,
      text_font: 'Garamond',
      text_color: 'Gold',
      total_price: '349.50',
      album_photos: [cart.photos.get('GREEN_0003.jpg'), cart.photos.get('RED_0001.jpg')],
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  await adminContext.close();

  await page.goto(`/lab-orders/${cart.orderGuid}`);
  const albums = page.getByRole('list', { name: 'Albums' });
  await expect(page.getByRole('heading', { name: 'ALBUMS (1)' })).toBeVisible();
  const card = albums.getByRole('listitem', { name: 'Wedding album, lay-flat' });
  await expect(card.getByText('Black linen')).toBeVisible();
  await expect(card.getByText('Ada & Grace (24 pt)')).toBeVisible();
  await expect(card.getByText('Garamond, Gold')).toBeVisible();
  await expect(card.getByText('$349.50')).toBeVisible();
  // Read-only: nothing on the card changes it.
  await expect(card.getByRole('textbox')).toHaveCount(0);
  await expect(card.getByRole('button', { name: /^View album photo / })).toHaveCount(2);
  // Its price is in the order's total.
  const total = page.getByRole('group', { name: 'Order figures' }).locator('dt:text-is("TOTAL") + dd');
  await expect(total).toHaveText(formatMoney(Math.round(before.total * 100) + 34950));

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, `order detail with an album at ${width}`);
    if (width !== 320) await card.screenshot({ path: test.info().outputPath(`album-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The album's photos in the album's order, each opening large.
  await card.getByRole('button', { name: /^View album photo / }).first().click();
  const modal = page.getByRole('dialog', { name: 'GREEN_0003.jpg' });
  await expect(modal.getByRole('img', { name: 'GREEN_0003.jpg' })).toBeVisible();
  await expect.poll(() => modal.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(modal.getByRole('link', { name: 'OPEN ORIGINAL' })).toHaveAttribute('href', /.+/);
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'View album photo GREEN_0003.jpg' })).toBeFocused();
});
