/**
 * The proof engine end to end in Chromium (issue 35): the bridge starts the worker on the first
 * ask, LittleCMS's WebAssembly loads in it, and the proof of a chart equals what the same engine
 * computes in Node from the photo's stored values, and another intent reuses the decoded preview;
 * an Adobe RGB photo goes through its own embedded profile; the gamut warning marks a saturated
 * patch and not a neutral one.
 */
import { expect, test, type Page } from '@playwright/test';
import { NEUTRALS, BLUES_GREENS, CHART, patchCentres, patchJpeg, patchPixels, nodeProof, storedPixels } from '../fixtures/icc/proof-photos.ts';
import { libvipsProfile, readFixture } from '../fixtures/icc/test-profiles.ts';
import { startProofHarness, type HarnessAnswer, type HarnessAsk, type HarnessPage, type ProofHarness } from './proof-harness.ts';

// Decoders may round a value differently by one, and a proof carries that through its curves.
const TOLERANCE = 2;

let harness: ProofHarness;
let chartRgba: Uint8Array;
let adobeRgba: Uint8Array;
let cmyk: Uint8Array;
const adobe = readFixture('adobe-rgb-compatible.icc');
const narrow = readFixture('narrow-printer.icc');
const colours = [...CHART, ...BLUES_GREENS, ...NEUTRALS];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  cmyk = await libvipsProfile('cmyk');
  const chart = await patchJpeg(patchPixels(colours), null);
  const adobeChart = await patchJpeg(patchPixels(colours), adobe);
  chartRgba = await storedPixels(chart);
  adobeRgba = await storedPixels(adobeChart);
  harness = await startProofHarness({ '/chart.jpg': chart, '/adobe-chart.jpg': adobeChart, '/cmyk.icc': cmyk, '/narrow.icc': narrow });
});

test.afterAll(async () => {
  await harness?.close();
});

async function open(page: Page): Promise<void> {
  await page.goto(`${harness.origin}/`);
  await expect(page.locator('body[data-ready="yes"]')).toBeAttached();
}

const proof = (page: Page, ask: HarnessAsk) => page.evaluate((a) => (globalThis as unknown as HarnessPage).proofHarness.proof(a), ask);

/** The largest channel difference between the browser's proof and Node's at the patch centres. */
function worstAtCentres(browser: HarnessAnswer, node: Uint8Array): number {
  let worst = 0;
  for (const i of patchCentres(colours.length)) for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs((browser.rgba[i * 4 + c] ?? -999) - (node[i * 4 + c] ?? 0)));
  return worst;
}

test('the worker proofs a chart on a CMYK paper as LittleCMS does, loading nothing before the first ask', async ({ page }) => {
  const fetched: string[] = [];
  page.context().on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await open(page);
  expect(fetched.filter((p) => p.endsWith('.wasm') || p.includes('proof-worker'))).toEqual([]);

  for (const intent of ['relative', 'perceptual'] as const) {
    const answer = await proof(page, { photo: 'chart', source: '/chart.jpg', paper: '/cmyk.icc', intent, gamutWarning: false });
    const node = await nodeProof(chartRgba, null, { key: 'cmyk', bytes: cmyk }, intent);
    expect(answer.width).toBe(256);
    expect(worstAtCentres(answer, node.pixels)).toBeLessThanOrEqual(TOLERANCE);
    // The proof is not the photo: a saturated blue moves on a CMYK paper.
    const blue = patchCentres(colours.length)[CHART.length] ?? 0;
    expect(answer.rgba.slice(blue * 4, blue * 4 + 3)).not.toEqual([0, 0, 255]);
  }
  expect(fetched.filter((p) => p.endsWith('.wasm'))).toHaveLength(1);
  expect(fetched.filter((p) => p.includes('proof-worker'))).toHaveLength(1);
  // The second intent proofs the preview the worker already decoded: no second fetch.
  expect(fetched.filter((p) => p === '/chart.jpg')).toHaveLength(1);
});

test('an Adobe RGB photo goes through its embedded profile, not through sRGB', async ({ page }) => {
  await open(page);
  const answer = await proof(page, { photo: 'adobe', source: '/adobe-chart.jpg', asBlob: true, paper: '/narrow.icc', intent: 'relative', gamutWarning: false });
  const asAdobe = await nodeProof(adobeRgba, adobe, { key: 'narrow', bytes: narrow }, 'relative');
  const asSrgb = await nodeProof(adobeRgba, null, { key: 'narrow', bytes: narrow }, 'relative');
  expect(worstAtCentres(answer, asAdobe.pixels)).toBeLessThanOrEqual(TOLERANCE);
  expect(worstAtCentres(answer, asSrgb.pixels)).toBeGreaterThan(10);
});

test('the gamut warning marks a saturated patch in the chosen colour and leaves a neutral one', async ({ page }) => {
  await open(page);
  const ask: HarnessAsk = { photo: 'chart', source: '/chart.jpg', paper: '/narrow.icc', intent: 'relative', gamutWarning: true, gamutColour: '#00ff00' };
  const marked = await proof(page, ask);
  const plain = await proof(page, { ...ask, gamutWarning: false });
  const centres = patchCentres(colours.length);
  const at = (a: HarnessAnswer, patch: number) => a.rgba.slice((centres[patch] ?? 0) * 4, (centres[patch] ?? 0) * 4 + 3);
  const saturatedBlue = CHART.length;
  const midGrey = CHART.length + BLUES_GREENS.length + 4;
  expect(colours[midGrey]).toEqual([128, 128, 128]);
  expect(at(marked, saturatedBlue)).toEqual([0, 255, 0]);
  expect(at(plain, saturatedBlue)).not.toEqual([0, 255, 0]);
  expect(at(marked, midGrey)).toEqual(at(plain, midGrey));
  expect(marked.outOfGamut).toBeGreaterThan(0);
  expect(marked.outOfGamut).toBe(plain.outOfGamut);
});
