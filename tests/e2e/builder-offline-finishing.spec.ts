/**
 * The builder offline for every print size (issue 11: 'the builder, the review and the preview
 * open and work offline'): the lab answers finishing per print size, so while the builder is open
 * online it keeps the finishing of every size of every paper on the device in the background
 * (src/offline/finishing-copy.ts). Offline, a paper and size never chosen then offer their mats,
 * mounts and frames, not NONE only.
 */
import { expect, test } from '@playwright/test';
import { CATEGORY_NAMES, FINISHING_CATEGORIES, type FinishingCategory } from '../../src/domain/catalogue.ts';
import { tile } from './builder-fixtures.ts';
import { cartWithPhotos } from './cart-fixtures.ts';
import { choose, idbRows, optionsOf } from './helpers.ts';

interface Paper {
  name: string;
  print_size_pricings: { guid: string; name: string }[];
}

test('a paper and size never chosen offer their finishing offline', async ({ page }) => {
  test.setTimeout(180_000);
  const cart = await cartWithPhotos(page, [{ name: 'IMG_0001.jpg', colour: 'green' }]);
  const papers = ((await (await page.request.get('/api/v2/papers_with_details')).json()) as { data: Paper[] }).data;
  const sizes = papers.flatMap((p) => p.print_size_pricings.map((s) => s.guid));
  /** The finishing categories the lab offers at a size, as the FINISHING dropdown names them. */
  const offered = async (paper: string, size: string) => {
    const guid = papers.find((p) => p.name === paper)?.print_size_pricings.find((s) => s.name === size)?.guid ?? '';
    const answer = await page.request.get(`/api/v2/products/${guid}/finishing_services`);
    const groups = ((await answer.json()) as { data: { finishing_category: FinishingCategory; services: unknown[] }[] }).data;
    // In the dropdown's order (src/domain/builder-gating.ts), NONE apart.
    return FINISHING_CATEGORIES.filter((c) => c !== 'none' && groups.some((g) => g.finishing_category === c && g.services.length > 0)).map((c) => CATEGORY_NAMES[c]);
  };
  const metallic = await offered('Metallic', '20x30');
  const mirror = await offered('Canvas - Mirror Wrap', '30x40');
  expect(metallic).toContain('HARDWOOD FRAME');
  expect(mirror.length).toBeGreaterThan(0);

  // Online: the builder opens, and keeps every size's finishing without a paper being chosen.
  await page.goto(`/lab-orders/${cart.orderGuid}/edit/order-builder`);
  await expect(page.getByRole('heading', { level: 1, name: 'ORDER BUILDER' })).toBeVisible();
  // The service worker precaches the whole client first: slow on a busy machine.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });
  const keptSizes = async () =>
    (await idbRows<{ key: string }>(page, 'cachedReads')).filter((r) => r.key.startsWith('lab|finishing_services|')).length;
  // Every size of the default catalogue, one at a time at idle moments: longer on a busy machine.
  await expect.poll(keptSizes, { timeout: 100_000, message: 'every print size kept for offline use' }).toBe(sizes.length);

  await page.context().setOffline(true);
  try {
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'ORDER BUILDER' })).toBeVisible();
    await tile(page, 'IMG_0001.jpg').click();
    await choose(page, 'PAPER', 'Metallic');
    await choose(page, 'PRINT SIZE', '20x30');
    await expect.poll(() => optionsOf(page, 'FINISHING')).toEqual(['Choose…', 'NONE', ...metallic]);
    await choose(page, 'FINISHING', 'HARDWOOD FRAME');
    await expect(page.getByRole('combobox', { name: 'FRAME WOOD', exact: true })).toBeVisible();

    await choose(page, 'PAPER', 'Canvas - Mirror Wrap');
    await choose(page, 'PRINT SIZE', '30x40');
    await expect.poll(() => optionsOf(page, 'FINISHING')).toEqual(['Choose…', 'NONE', ...mirror]);
  } finally {
    await page.context().setOffline(false);
  }
});
