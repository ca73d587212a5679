/**
 * Issue 31: the upload screen counts the photos of the order one way (rejected files are not in
 * it), and its grid orders them as the builder does, by the number in the file name.
 */
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { signUpPhotographer } from './cart-fixtures.ts';
import { photoDir, smallPhotos, textNamedJpg } from './upload-fixtures.ts';

test.setTimeout(90_000);

// Chosen in this order; the spec's order is by the leading number, or the number after the first
// underscore when the name starts with text.
const CHOSEN = ['12_bride.jpg', '7_groom.jpg', '100_cake.jpg', '1_rings.jpg', 'IMG_45.jpg', 'IMG_9.jpg', 'DSC_3.jpg', '20_dance.jpg', '2_vows.jpg', '8_toast.jpg'];
const BY_NUMBER = ['1_rings.jpg', '2_vows.jpg', 'DSC_3.jpg', '7_groom.jpg', '8_toast.jpg', 'IMG_9.jpg', '12_bride.jpg', '20_dance.jpg', 'IMG_45.jpg', '100_cake.jpg'];

test('ten photos and two text files named .jpg: one count of the order, and the grid by the number in the name', async ({ page }) => {
  const dir = photoDir();
  const photos = (await smallPhotos(dir, CHOSEN.length)).map((path, i) => {
    const named = join(dir, CHOSEN[i] ?? '');
    renameSync(path, named);
    return named;
  });
  await signUpPhotographer(page);
  await page.goto('/lab-orders/upload');
  await page.getByLabel('Order Name', { exact: true }).fill(`Summary ${Date.now()}`);
  await page.getByRole('button', { name: 'SAVE AND UPLOAD' }).click();
  await expect(page).toHaveURL(/\/upload-progress$/);
  await page.getByLabel('SELECT PHOTOS TO UPLOAD').setInputFiles([...photos, textNamedJpg(dir, 'notes.jpg'), textNamedJpg(dir, 'invoice.jpg')]);

  const summary = page.getByRole('status').filter({ hasText: 'photos uploaded' });
  await expect(summary).toContainText('10 of 10 photos uploaded', { timeout: 60_000 });
  await expect(summary).toContainText('2 photos rejected');
  await expect(page.getByRole('heading', { name: 'UPLOAD COMPLETE' })).toBeVisible();
  // Nothing else on the screen counts the photos another way.
  await expect(page.getByText(/\b12 photos\b/)).toHaveCount(0);

  const grid = page.getByRole('region', { name: 'Uploaded photos' }).getByRole('img');
  await expect(grid).toHaveCount(10);
  expect(await grid.evaluateAll((els) => els.map((e) => e.getAttribute('alt') ?? e.getAttribute('aria-label')))).toEqual(BY_NUMBER);

  for (const width of [375, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`upload-summary-${width}.png`), fullPage: true });
  }
  rmSync(dir, { recursive: true, force: true });
});
