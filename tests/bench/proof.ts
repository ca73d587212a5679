/**
 * `--only=proof` (issue 35): the soft proof's accuracy and speed, in Chromium, through the real
 * bridge and worker (tests/e2e/proof-harness.ts builds and serves them).
 *
 * Accuracy: sRGB, Adobe RGB and Display P3 versions of a colour chart, skin tones, saturated blues
 * and greens and a photo-like colour field, proofed on two papers (libvips's CMYK profile and the
 * narrow RGB printer of tests/fixtures/icc), compared pixel by pixel in CIEDE2000 with:
 * - perceptual: libvips's own conversion of the photo into the paper's colours (sharp, which offers
 *   only the perceptual intent), shown on sRGB by LittleCMS as the proof shows a paper;
 * - relative colorimetric + black-point compensation: LittleCMS in Node printing then viewing in
 *   two transforms per pixel (photo → paper's 16-bit colours → sRGB), as against the proof's
 *   table of the same two transforms on a grid, interpolated.
 * Speed: proofs of a 2,048-px preview in the worker (median), the longest main-thread task
 * meanwhile, and the answer for a proof already made (a toggle flipped back).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTENT_PERCEPTUAL, INTENT_RELATIVE_COLORIMETRIC, TYPE_RGB_8, cmsFLAGS_BLACKPOINTCOMPENSATION, cmsSigCmykData, instantiate, type Lcms } from 'lcms-wasm';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import type { ProofIntent } from '../../src/proof/shared/proof-api.ts';
import { pixelDifferences, summarise } from '../fixtures/icc/delta-e.ts';
import { BLUES_GREENS, CHART, SKIN, patchJpeg, patchPixels, storedPixels } from '../fixtures/icc/proof-photos.ts';
import { ProofTransforms } from '../../src/proof/worker/proof-transform.ts';
import { libvipsProfile, readFixture } from '../fixtures/icc/test-profiles.ts';
import { startProofHarness, type HarnessAnswer, type HarnessAsk, type HarnessPage } from '../e2e/proof-harness.ts';
import { launchBrowser } from './browser.ts';
import { onCleanup } from './cleanup.ts';
import { ms, verdict, type Row } from './report.ts';
import { median } from './upload-bench-kit.ts';

// Issue 35's targets.
const MEAN_DE_MAX = 1;
const P99_DE_MAX = 3;
const PROOF_MEDIAN_MS = 150;
const LONG_TASK_MS = 50;
// A toggle flipped back shows a proof already made within one frame at 60 Hz.
const CACHED_MS = 1000 / 60;
// The builder's preview: the lab's 2,048-px derivative (server/services/photo-derivatives.ts).
const PREVIEW_LONG_SIDE = 2048;
const PREVIEW_SHORT_SIDE = 1365;
// Timed proofs of the preview, after one warm-up that builds the tables.
const SPEED_RUNS = 7;
// LittleCMS's 16-bit layouts (lcms2.h TYPE_CMYK_16, TYPE_RGB_16): colour space, channels, 2 bytes.
const TYPE_CMYK_16 = (6 << 16) | (4 << 3) | 2;
const TYPE_RGB_16 = (4 << 16) | (3 << 3) | 2;
const TYPE_CMYK_8 = (6 << 16) | (4 << 3) | 1;

/**
 * libvips: sharp converts the photo into the paper's colours (perceptual, its only intent); it
 * goes through its sRGB processing space on the way, so only sRGB photos are compared with it.
 * LittleCMS: printing (photo → the paper's 16-bit colours) then viewing, two transforms in Node.
 */
type Reference = 'libvips' | 'littlecms';

type Rgb = [number, number, number];

/** A photo-like field: hue across, lightness down, saturation in bands, `width`×`height`. */
function colourField(width: number, height: number): { rgb: Uint8Array; width: number; height: number } {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const h = (x / width) * 6;
      const l = 0.08 + (0.86 * y) / height;
      const s = 0.35 + 0.65 * ((Math.floor(y / 24) % 3) / 2);
      const c = (1 - Math.abs(2 * l - 1)) * s;
      const k = c * (1 - Math.abs((h % 2) - 1));
      const [r, g, b] = h < 1 ? [c, k, 0] : h < 2 ? [k, c, 0] : h < 3 ? [0, c, k] : h < 4 ? [0, k, c] : h < 5 ? [k, 0, c] : [c, 0, k];
      const m = l - c / 2;
      rgb.set([r, g, b].map((v) => Math.round((v + m) * 255)), (y * width + x) * 3);
    }
  }
  return { rgb, width, height };
}

interface Paper {
  name: string;
  url: string;
  path: string;
  bytes: Uint8Array;
}

/** The reference of one photo on one paper, RGB 8-bit sRGB. */
async function reference(lcms: Lcms, jpeg: Uint8Array, icc: Uint8Array | null, paper: Paper, intent: ProofIntent, by: Reference): Promise<Uint8Array> {
  const stored = await storedPixels(jpeg);
  const count = stored.length / 4;
  const rgb = Uint8Array.from({ length: count * 3 }, (_, i) => stored[Math.floor(i / 3) * 4 + (i % 3)] ?? 0);
  const paperProfile = lcms.cmsOpenProfileFromMem(paper.bytes, paper.bytes.length);
  const display = lcms.cmsCreate_sRGBProfile();
  const isCmyk = lcms.cmsGetColorSpace(paperProfile) === cmsSigCmykData;
  const photo = icc ? lcms.cmsOpenProfileFromMem(icc, icc.length) : lcms.cmsCreate_sRGBProfile();
  try {
    let onPaper: ArrayLike<number>;
    let paperFormat: number;
    if (by === 'libvips') {
      // sharp offers the perceptual intent only.
      onPaper = await sharp(jpeg).withIccProfile(paper.path).raw().toBuffer();
      paperFormat = isCmyk ? TYPE_CMYK_8 : TYPE_RGB_8;
    } else {
      paperFormat = isCmyk ? TYPE_CMYK_16 : TYPE_RGB_16;
      const print =
        intent === 'relative'
          ? lcms.cmsCreateTransform(photo, TYPE_RGB_8, paperProfile, paperFormat, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_BLACKPOINTCOMPENSATION)
          : lcms.cmsCreateTransform(photo, TYPE_RGB_8, paperProfile, paperFormat, INTENT_PERCEPTUAL, 0);
      onPaper = lcms.cmsDoTransform(print, rgb, count);
      lcms.cmsDeleteTransform(print);
    }
    const view = lcms.cmsCreateTransform(paperProfile, paperFormat, display, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, 0);
    const shown = lcms.cmsDoTransform(view, onPaper, count).slice(0, count * 3);
    lcms.cmsDeleteTransform(view);
    return Uint8Array.from(shown);
  } finally {
    for (const p of [paperProfile, display, photo]) lcms.cmsCloseProfile(p);
  }
}

function joined(parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const rgbaToRgb = (rgba: ArrayLike<number>) => Uint8Array.from({ length: (rgba.length / 4) * 3 }, (_, i) => rgba[Math.floor(i / 3) * 4 + (i % 3)] ?? 0);

async function proofIn(page: Page, ask: HarnessAsk): Promise<HarnessAnswer> {
  return page.evaluate((a) => (globalThis as unknown as HarnessPage).proofHarness.proof(a), ask);
}

export async function measureProof({ log }: { log: (line: string) => void }): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'proof-bench-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const lcms = await instantiate();
  const cmyk = await libvipsProfile('cmyk');
  const papers: Paper[] = [
    { name: 'libvips CMYK', url: '/cmyk.icc', path: join(dir, 'cmyk.icc'), bytes: cmyk },
    { name: 'narrow RGB printer', url: '/narrow.icc', path: join(dir, 'narrow.icc'), bytes: readFixture('narrow-printer.icc') },
  ];
  for (const p of papers) writeFileSync(p.path, p.bytes);
  const spaces: [string, Uint8Array | null][] = [
    ['sRGB', null],
    ['Adobe RGB', readFixture('adobe-rgb-compatible.icc')],
    ['Display P3', await libvipsProfile('p3')],
  ];
  const subjects: [string, { rgb: Uint8Array; width: number; height: number }][] = [
    ['chart', patchPixels(CHART)],
    ['skin', patchPixels(SKIN as Rgb[], 8)],
    ['blues and greens', patchPixels(BLUES_GREENS as Rgb[], 8)],
    ['colour field', colourField(384, 256)],
  ];
  const files: Record<string, Uint8Array> = Object.fromEntries(papers.map((p) => [p.url, p.bytes]));
  const photos: { url: string; space: string; icc: Uint8Array | null; jpeg: Uint8Array }[] = [];
  for (const [space, icc] of spaces) {
    for (const [subject, image] of subjects) {
      const url = `/${space}-${subject}.jpg`.replaceAll(' ', '-');
      const jpeg = await patchJpeg(image, icc);
      files[url] = jpeg;
      photos.push({ url, space, icc, jpeg });
    }
  }
  const preview = colourField(PREVIEW_LONG_SIDE, PREVIEW_SHORT_SIDE);
  const previewJpeg = new Uint8Array(await sharp(preview.rgb, { raw: { width: preview.width, height: preview.height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer());
  files['/preview.jpg'] = previewJpeg;

  const harness = await startProofHarness(files);
  onCleanup(() => harness.close());
  const browser: Browser = await launchBrowser();
  onCleanup(() => browser.close());
  const page = await browser.newPage();
  await page.goto(`${harness.origin}/`);
  await page.locator('body[data-ready="yes"]').waitFor({ state: 'attached' });

  const rows: Row[] = [];
  const comparisons: [ProofIntent, Reference, string[]][] = [
    ['perceptual', 'libvips', ['sRGB']],
    ['perceptual', 'littlecms', spaces.map(([space]) => space)],
    ['relative', 'littlecms', spaces.map(([space]) => space)],
  ];
  for (const [intent, by, picked] of comparisons) {
    for (const paper of papers) {
      const all: Float64Array[] = [];
      const perSpace: string[] = [];
      for (const space of picked) {
        const diffs: Float64Array[] = [];
        for (const photo of photos.filter((p) => p.space === space)) {
          const answer = await proofIn(page, { photo: photo.url, source: photo.url, paper: paper.url, intent, gamutWarning: false });
          const ref = await reference(lcms, photo.jpeg, photo.icc, paper, intent, by);
          diffs.push(pixelDifferences(rgbaToRgb(answer.rgba), ref, 3));
        }
        const s = summarise(joined(diffs));
        perSpace.push(`${space} ${s.mean.toFixed(2)}/${s.p99.toFixed(2)}`);
        all.push(...diffs);
      }
      const { mean, p99, max } = summarise(joined(all));
      const against = by === 'libvips' ? 'libvips (sharp) into the paper, then LittleCMS to sRGB' : 'LittleCMS printing then viewing';
      log(`proof accuracy, ${intent}, ${paper.name}, vs ${against}: mean ${mean.toFixed(2)}, p99 ${p99.toFixed(2)}, max ${max.toFixed(2)} CIEDE2000 (mean/p99 by space: ${perSpace.join('; ')})`);
      rows.push({
        area: 'proof',
        figure: `accuracy ${intent}, ${paper.name}, vs ${against} (${picked.join(', ')} photos; mean / p99 ΔE00)`,
        value: `${mean.toFixed(2)} / ${p99.toFixed(2)}`,
        target: `≤ ${MEAN_DE_MAX} / ≤ ${P99_DE_MAX}`,
        result: verdict(mean <= MEAN_DE_MAX && p99 <= P99_DE_MAX),
      });
    }
  }
  // What libvips gives for the wide-gamut photos, printed for the record (see Reference).
  for (const paper of papers) {
    const diffs: Float64Array[] = [];
    for (const photo of photos.filter((p) => p.space !== 'sRGB')) {
      const answer = await proofIn(page, { photo: photo.url, source: photo.url, paper: paper.url, intent: 'perceptual', gamutWarning: false });
      diffs.push(pixelDifferences(rgbaToRgb(answer.rgba), await reference(lcms, photo.jpeg, photo.icc, paper, 'perceptual', 'libvips'), 3));
    }
    const s = summarise(joined(diffs));
    log(`for the record: perceptual, ${paper.name}, Adobe RGB and Display P3 photos vs libvips (through its sRGB processing space): mean ${s.mean.toFixed(2)}, p99 ${s.p99.toFixed(2)}`);
  }

  // Speed: fresh photo ids, so each run decodes, proofs and makes the file (nothing cached); the
  // tables are built by the warm-up (a new paper's first proof also builds its table).
  for (const paper of papers) {
    const ask: HarnessAsk = { photo: `preview-${paper.name}`, source: '/preview.jpg', paper: paper.url, intent: 'relative', gamutWarning: true };
    const first = await page.evaluate((a) => (globalThis as unknown as HarnessPage).proofHarness.timeProofs(a, 1), { ...ask, photo: `${ask.photo}-warm` });
    const timed = await page.evaluate(([a, runs]) => (globalThis as unknown as HarnessPage).proofHarness.timeProofs(a, runs), [ask, SPEED_RUNS] as const);
    // The last timed proof, which the worker still holds.
    const cached = await page.evaluate((a) => (globalThis as unknown as HarnessPage).proofHarness.proof(a, false), { ...ask, photo: `${ask.photo}-${SPEED_RUNS - 1}` });
    const mid = median(timed.ms);
    log(`proof speed, ${paper.name}: first ${ms(first.ms[0] ?? 0)} (builds the table), then median ${ms(mid)} of ${SPEED_RUNS}; longest main-thread task ${ms(timed.longestTask)}; cached ${ms(cached.ms)}`);
    // Where the time goes, in the same run: the browser's decode of the same preview in the page,
    // the proof's colour pass alone in Node (its table, built first), and the making of the BMP the
    // page is handed, with the PNG encode it replaced for comparison.
    const base = await page.evaluate(([url, runs]) => (globalThis as unknown as HarnessPage).proofHarness.decodeAndEncode(url, runs), ['/preview.jpg', SPEED_RUNS] as const);
    const stored = await storedPixels(previewJpeg);
    const engine = new ProofTransforms(lcms);
    engine.proof(stored, null, { key: paper.name, bytes: paper.bytes }, 'relative');
    const passMs: number[] = [];
    for (let i = 0; i < SPEED_RUNS; i++) {
      const t = performance.now();
      engine.proof(stored, null, { key: paper.name, bytes: paper.bytes }, 'relative');
      passMs.push(performance.now() - t);
    }
    log(`  of which, measured apart: decode to pixels ${ms(median(base.decode))}, colour pass with gamut check (Node) ${ms(median(passMs))}, BMP file ${ms(median(base.file))} (a PNG encode instead: ${ms(median(base.png))})`);
    rows.push(
      {
        area: 'proof',
        figure: `its parts on ${paper.name}, measured apart: decode / colour pass with gamut check / BMP file (PNG encode it replaced) (medians)`,
        value: `${ms(median(base.decode))} / ${ms(median(passMs))} / ${ms(median(base.file))} (${ms(median(base.png))})`,
        target: 'printed',
        result: 'PASS',
      },
      { area: 'proof', figure: `${PREVIEW_LONG_SIDE}-px preview on ${paper.name}, gamut warning on (median of ${SPEED_RUNS})`, value: ms(mid), target: `≤ ${PROOF_MEDIAN_MS} ms`, result: verdict(mid <= PROOF_MEDIAN_MS) },
      // The machine is shared: the whole proof as a multiple of the browser's own decode of the
      // same preview in the same run reads the same whatever the load.
      { area: 'proof', figure: `the same median ÷ the browser's decode of the preview (same run), ${paper.name}`, value: `${(mid / median(base.decode)).toFixed(1)}×`, target: 'printed', result: 'PASS' },
      { area: 'proof', figure: `first proof on ${paper.name} (builds its table)`, value: ms(first.ms[0] ?? 0), target: 'printed', result: 'PASS' },
      { area: 'proof', figure: `longest main-thread task while proofing on ${paper.name}`, value: ms(timed.longestTask), target: `≤ ${LONG_TASK_MS} ms`, result: verdict(timed.longestTask <= LONG_TASK_MS) },
      { area: 'proof', figure: `a proof already made (toggle flipped back), ${paper.name}`, value: ms(cached.ms), target: `≤ ${CACHED_MS.toFixed(1)} ms`, result: verdict(cached.ms <= CACHED_MS) },
    );
  }
  return rows;
}
