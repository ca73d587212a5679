/**
 * PROOF ON PAPER in the builder's crop view (issue 35), end to end: a lab whose catalogue gives
 * Lustre an ICC profile (`npm run catalogue:load` with the paper naming its profile file, as a lab
 * does) and Matte none. The crop view's pixels change to what the same LittleCMS engine computes
 * in Node; the gamut warning marks a saturated blue and not a neutral grey; it works offline after
 * one visit; a paper without a profile offers no toggle. The cart preview proofs a Lustre print the same way.
 *
 * The spec starts its own server with that catalogue and leaves the suite's e2e server alone.
 */
import { expect, test, type Page } from '@playwright/test';
import { defaultCatalogue } from '../../server/catalogue/default-catalogue.ts';
import { nodeProof } from '../fixtures/icc/proof-photos.ts';
import { libvipsProfile, readFixture } from '../fixtures/icc/test-profiles.ts';
import { tile } from './builder-fixtures.ts';
import { addLineItems, cartWithPhotos } from './cart-fixtures.ts';
import { choose, signIn } from './helpers.ts';
import { labWithCatalogue, type OwnLab } from './lab-with-catalogue.ts';
import { expectAccessible } from './screens.ts';

// An upload, a sign-up, a service worker's install and two proofs on a machine shared with other runs.
test.setTimeout(180_000);

// The browser's decoder and the worker's may round a value differently by one, and the proof
// carries that through the profile's curves.
const TOLERANCE = 3;
const MAGENTA = [255, 0, 255];
const PHOTO = 'IMG_0001.jpg';

let lab: OwnLab | undefined;
let base = '';

test.beforeAll(async () => {
  test.setTimeout(150_000);
  const catalogue = defaultCatalogue() as { papers: { name: string; icc_profile?: string }[] };
  for (const paper of catalogue.papers) if (paper.name === 'Lustre') paper.icc_profile = 'lustre.icc';
  lab = await labWithCatalogue('proof', catalogue, { 'lustre.icc': readFixture('narrow-printer.icc') });
  expect(lab.loaded).toContain('1 ICC profiles');
  base = lab.base;
});

test.afterAll(() => lab?.close());

interface Shown {
  src: string;
  /** The left half's pixel (saturated blue) and the right half's (neutral grey), RGB. */
  left: number[];
  right: number[];
}

/** The crop view's picture as the browser shows it, drawn into a canvas and read back. */
const shown = (page: Page): Promise<Shown> =>
  page
    .getByRole('region', { name: 'Crop' })
    .getByRole('img', { name: PHOTO, exact: true })
    .evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2d context');
      ctx.drawImage(img, 0, 0);
      const at = (fx: number) => Array.from(ctx.getImageData(Math.floor(canvas.width * fx), Math.floor(canvas.height / 2), 1, 1).data.subarray(0, 3));
      return { src: img.currentSrc || img.src, left: at(0.25), right: at(0.75) };
    });

/** The cart preview's canvas, read back the same way (its picture is the line item's crop, flat). */
const previewed = (page: Page): Promise<Omit<Shown, 'src'>> =>
  page.getByRole('img', { name: `${PHOTO} as a 8x10 print on Lustre, flat` }).evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    const at = (fx: number) => Array.from(ctx.getImageData(Math.floor(canvas.width * fx), Math.floor(canvas.height / 2), 1, 1).data.subarray(0, 3));
    return { left: at(0.25), right: at(0.75) };
  });

/** What the same engine makes of the shown pixels on Lustre's profile, in Node. */
async function proofOf(pixels: number[][], paperKey: string): Promise<number[][]> {
  const rgba = new Uint8Array(pixels.flatMap((p) => [...p, 255]));
  const { pixels: out } = await nodeProof(rgba, null, { key: paperKey, bytes: readFixture('narrow-printer.icc') }, 'relative');
  return pixels.map((_, i) => Array.from(out.subarray(i * 4, i * 4 + 3)));
}

const near = (actual: number[], expected: number[]) => actual.every((v, i) => Math.abs(v - (expected[i] ?? -999)) <= TOLERANCE);

const proofSwitch = (page: Page) => page.getByRole('switch', { name: 'PROOF ON PAPER' });
const gamutSwitch = (page: Page) => page.getByRole('switch', { name: 'GAMUT WARNING' });

/** Turns the proof on and waits for the proofed picture: its pixels are the engine's for the original's. */
async function expectProofed(page: Page, before: Shown, paperKey: string): Promise<Shown> {
  const [left, right] = await proofOf([before.left, before.right], paperKey);
  await proofSwitch(page).check();
  await expect(page.getByRole('status').filter({ hasText: 'Proof on Lustre, relative colorimetric with black-point compensation:' })).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(async () => {
      const now = await shown(page);
      return now.src !== before.src && near(now.left, left ?? []) && near(now.right, right ?? []) ? 'proofed' : JSON.stringify({ now, want: { left, right } });
    }, { timeout: 30_000 })
    .toBe('proofed');
  // The narrow paper cannot hold the saturated blue: the proof shows it otherwise.
  expect(near(left ?? [], before.left)).toBe(false);
  return shown(page);
}

/** The gamut warning paints the blue half and leaves the grey half as proofed. */
async function expectGamutMarks(page: Page, proofed: Shown): Promise<void> {
  await gamutSwitch(page).check();
  await expect
    .poll(async () => {
      const now = await shown(page);
      return near(now.left, MAGENTA) && near(now.right, proofed.right) ? 'marked' : JSON.stringify(now);
    }, { timeout: 30_000 })
    .toBe('marked');
}

test('Lustre proofs in the crop view, online and offline, with the gamut marked; Matte offers no proof', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const cart = await cartWithPhotos(page, [{ name: PHOTO, colour: 'blue-grey' }]);
  const papers = ((await (await page.request.get('/api/v2/papers_with_details')).json()) as { data: { name: string; icc_profile: { key: string } | null }[] }).data;
  const lustreKey = papers.find((p) => p.name === 'Lustre')?.icc_profile?.key ?? '';
  expect(lustreKey).toMatch(/^paper-profiles\//);

  // The lab's preview made (a background job), so the builder shows it rather than the device's thumbnail.
  const derivativesReady = async () => {
    const listed = await page.request.get(`/api/v2/lab_orders/${cart.orderGuid}/lab_order_photographs`, { headers: { token: cart.token } });
    return ((await listed.json()) as { data: { derivatives_ready: boolean }[] }).data.every((p) => p.derivatives_ready);
  };
  await expect.poll(derivativesReady, { timeout: 60_000 }).toBe(true);

  await page.goto(`/lab-orders/${cart.orderGuid}/edit/order-builder`);
  await expect(page.getByRole('heading', { level: 1, name: 'ORDER BUILDER' })).toBeVisible();
  await tile(page, PHOTO).click();

  // A paper without a profile: no toggle at all.
  await choose(page, 'PAPER', 'Matte');
  await expect(page.getByRole('region', { name: 'Crop' }).getByRole('img', { name: PHOTO, exact: true })).toBeVisible();
  await expect(proofSwitch(page)).toHaveCount(0);
  await expect(gamutSwitch(page)).toHaveCount(0);

  await choose(page, 'PAPER', 'Lustre');
  await expect(gamutSwitch(page)).toBeDisabled();
  // The lab's preview, once it replaced the device's thumbnail.
  await expect.poll(async () => (await shown(page)).src, { timeout: 30_000 }).not.toMatch(/^blob:/);
  const proofed = await expectProofed(page, await shown(page), lustreKey);
  await expectGamutMarks(page, proofed);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, 'builder with PROOF ON PAPER');
  }

  // The cart preview of a Lustre print offers the same switches, and draws the same proof.
  await addLineItems(page.request, cart, [{ photo: PHOTO, paper: 'Lustre', size: '8x10' }]);
  await page.goto(`/cart-preview/${cart.orderGuid}`);
  await proofSwitch(page).check();
  await expect.poll(async () => near((await previewed(page)).left, proofed.left) || JSON.stringify(await previewed(page)), { timeout: 30_000 }).toBe(true);
  await gamutSwitch(page).check();
  await expect.poll(async () => near((await previewed(page)).left, MAGENTA) && near((await previewed(page)).right, proofed.right), { timeout: 30_000 }).toBe(true);
  await page.goto(`/lab-orders/${cart.orderGuid}/edit/order-builder`);
  await expect(page.getByRole('heading', { level: 1, name: 'ORDER BUILDER' })).toBeVisible();

  // Offline after this one visit: the shell, the catalogue, the profile and LittleCMS are on the device.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'ORDER BUILDER' })).toBeVisible();
    await tile(page, PHOTO).click();
    await choose(page, 'PAPER', 'Lustre');
    const offlineProofed = await expectProofed(page, await shown(page), lustreKey);
    await expectGamutMarks(page, offlineProofed);
  } finally {
    await context.setOffline(false);
    await context.close();
  }
});

test('an admin attaches a paper profile on /price-lists; a display profile is refused with the reason', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto('/login');
    await signIn(page);
    await page.goto('/price-lists');
    const profiles = page.getByRole('region', { name: 'Paper profiles' });
    const matte = profiles.getByRole('row', { name: /^Matte / });
    await expect(matte).toContainText('None: no proof offered');
    await expect(profiles.getByRole('row', { name: /^Lustre / })).toContainText('lustre.icc (RGB)');

    await matte.getByLabel('ICC profile for Matte').setInputFiles({ name: 'screen.icc', mimeType: 'application/vnd.iccprofile', buffer: Buffer.from(await libvipsProfile('srgb')) });
    await expect(matte.getByRole('alert')).toHaveText(/not a printer \(output\) profile: its class is Monitor/);
    await expect(matte).toContainText('None: no proof offered');

    await matte.getByLabel('ICC profile for Matte').setInputFiles({ name: 'matte.icc', mimeType: 'application/vnd.iccprofile', buffer: Buffer.from(await libvipsProfile('cmyk')) });
    await expect(matte).toContainText('matte.icc (CMYK)');
    await expect(matte.getByRole('alert')).toHaveCount(0);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page, 'price lists with PAPER PROFILES');
    }
    const papers = ((await (await page.request.get('/api/v2/papers_with_details')).json()) as { data: { name: string; icc_profile: { name: string } | null }[] }).data;
    expect(papers.find((p) => p.name === 'Matte')?.icc_profile?.name).toBe('matte.icc');
  } finally {
    await context.close();
  }
});
