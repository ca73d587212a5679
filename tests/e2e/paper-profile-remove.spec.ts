/**
 * REMOVE in PAPER PROFILES (issue 35), end to end: a lab whose catalogue gives Lustre an ICC
 * profile (`npm run catalogue:load`, as a lab does). A photographer's builder offers PROOF ON
 * PAPER on Lustre; an admin removes the profile on /price-lists, past a confirmation; the builder
 * then offers no proof on Lustre, and the profile's file is no longer served.
 *
 * The spec starts its own server with that catalogue and leaves the suite's e2e server alone.
 */
import { expect, test, type Page } from '@playwright/test';
import { defaultCatalogue } from '../../server/catalogue/default-catalogue.ts';
import { readFixture } from '../fixtures/icc/test-profiles.ts';
import { tile } from './builder-fixtures.ts';
import { cartWithPhotos } from './cart-fixtures.ts';
import { choose, signIn } from './helpers.ts';
import { labWithCatalogue, type OwnLab } from './lab-with-catalogue.ts';
import { expectAccessible } from './screens.ts';

// A sign-up, an upload and a lab server of its own on a machine shared with other runs.
test.setTimeout(150_000);

const PHOTO = 'IMG_0001.jpg';

let lab: OwnLab | undefined;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  const catalogue = defaultCatalogue() as { papers: { name: string; icc_profile?: string }[] };
  for (const paper of catalogue.papers) if (paper.name === 'Lustre') paper.icc_profile = 'lustre.icc';
  lab = await labWithCatalogue('profile-remove', catalogue, { 'lustre.icc': readFixture('narrow-printer.icc') });
  expect(lab.loaded).toContain('1 ICC profiles');
});

test.afterAll(() => lab?.close());

const proofSwitch = (page: Page) => page.getByRole('switch', { name: 'PROOF ON PAPER' });

test('an admin removes a paper profile after confirming; the builder then offers no proof on that paper', async ({ browser }) => {
  const base = lab?.base ?? '';
  const photographer = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 } });
  const admin = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 } });
  try {
    const page = await photographer.newPage();
    const cart = await cartWithPhotos(page, [{ name: PHOTO, colour: 'blue-grey' }]);
    const builder = async () => {
      await page.goto(`/lab-orders/${cart.orderGuid}/edit/order-builder`);
      await expect(page.getByRole('heading', { level: 1, name: 'ORDER BUILDER' })).toBeVisible();
      await tile(page, PHOTO).click();
      await choose(page, 'PAPER', 'Lustre');
      await expect(page.getByRole('region', { name: 'Crop' }).getByRole('img', { name: PHOTO, exact: true })).toBeVisible();
    };
    await builder();
    await expect(proofSwitch(page)).toBeVisible();
    const papers = ((await (await page.request.get('/api/v2/papers_with_details')).json()) as { data: { name: string; icc_profile: { url: string } | null }[] }).data;
    const profileUrl = papers.find((p) => p.name === 'Lustre')?.icc_profile?.url ?? '';
    expect(profileUrl).toMatch(/\.icc$/);

    const desk = await admin.newPage();
    await desk.goto('/login');
    await signIn(desk);
    await desk.goto('/price-lists');
    const lustre = desk.getByRole('region', { name: 'Paper profiles' }).getByRole('row', { name: /^Lustre / });
    await expect(lustre).toContainText('lustre.icc (RGB)');
    const remove = lustre.getByRole('button', { name: 'REMOVE the profile of Lustre' });

    // KEEP PROFILE leaves it; the question names the file and the paper.
    await remove.click();
    const question = desk.getByRole('dialog', { name: 'REMOVE THIS PROFILE?' });
    await expect(question).toContainText('lustre.icc stops being the profile of Lustre');
    await expectAccessible(desk, 'price lists asking REMOVE THIS PROFILE?');
    await question.getByRole('button', { name: 'KEEP PROFILE' }).click();
    await expect(question).toHaveCount(0);
    await expect(lustre).toContainText('lustre.icc (RGB)');

    await remove.click();
    await question.getByRole('button', { name: 'REMOVE PROFILE' }).click();
    await expect(question).toHaveCount(0);
    await expect(lustre).toContainText('None: no proof offered');
    await expect(remove).toHaveCount(0);
    // No other paper used the file: it is gone with the profile.
    expect((await desk.request.get(profileUrl)).status()).toBe(404);

    // The photographer's builder, opened again, reads the new catalogue: no proof on Lustre.
    await builder();
    await expect(proofSwitch(page)).toHaveCount(0);
  } finally {
    await photographer.close();
    await admin.close();
  }
});
