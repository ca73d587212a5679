import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  INTENT_PERCEPTUAL,
  INTENT_RELATIVE_COLORIMETRIC,
  TYPE_RGBA_8,
  TYPE_RGB_8,
  cmsFLAGS_BLACKPOINTCOMPENSATION,
  cmsFLAGS_COPY_ALPHA,
  cmsFLAGS_GAMUTCHECK,
  cmsFLAGS_SOFTPROOFING,
  instantiate,
  type Lcms,
} from 'lcms-wasm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALARM, ProofTransforms, markGamut, parseGamutColour } from '../../../src/proof/worker/proof-transform.ts';
import { pixelDifferences, srgbToLab, summarise } from '../../fixtures/icc/delta-e.ts';
import { BLUES_GREENS, CHART, NEUTRALS, SKIN } from '../../fixtures/icc/proof-photos.ts';
import { libvipsProfile, readFixture } from '../../fixtures/icc/test-profiles.ts';

// LittleCMS's 8-bit CMYK layout (lcms2.h TYPE_CMYK_8: colour space 6, 4 channels, 1 byte).
const TYPE_CMYK_8 = (6 << 16) | (4 << 3) | 1;
// Its 16-bit twin (lcms2.h TYPE_CMYK_16: 2 bytes a channel).
const TYPE_CMYK_16 = (6 << 16) | (4 << 3) | 2;

// Building a transform through the 1 MB CMYK profile takes LittleCMS most of a second alone, and
// far longer on the shared CI machine; each is built once here and kept by the engine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let lcms: Lcms;
let engine: ProofTransforms;
let cmyk: Uint8Array;
let dir: string;
const narrow = readFixture('narrow-printer.icc');
const patches = [...CHART, ...SKIN, ...BLUES_GREENS, ...NEUTRALS];
const rgba = Uint8Array.from(patches.flatMap((c) => [...c, 255]));
const rgb = Uint8Array.from(patches.flat());

beforeAll(async () => {
  lcms = await instantiate();
  engine = new ProofTransforms(lcms);
  cmyk = await libvipsProfile('cmyk');
  dir = mkdtempSync(join(tmpdir(), 'proof-unit-'));
  writeFileSync(join(dir, 'cmyk.icc'), cmyk);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const toRgba = (three: ArrayLike<number>) => Uint8Array.from({ length: (three.length / 3) * 4 }, (_, i) => (i % 4 === 3 ? 255 : (three[Math.floor(i / 4) * 3 + (i % 4)] ?? 0)));
const pixel = (px: ArrayLike<number>, i: number) => [px[i * 4], px[i * 4 + 1], px[i * 4 + 2]];

describe('the proof on libvips’s CMYK paper', () => {
  it('agrees with libvips’s own conversion to the paper, shown through LittleCMS (perceptual)', async () => {
    // The lab's side: libvips converts the sRGB chart into the paper's CMYK (perceptual, the one
    // intent sharp offers), then LittleCMS shows that CMYK on sRGB, the paper's white as white.
    const onPaper = await sharp(Buffer.from(rgb), { raw: { width: patches.length, height: 1, channels: 3 } }).withIccProfile(join(dir, 'cmyk.icc')).raw().toBuffer();
    const paper = lcms.cmsOpenProfileFromMem(cmyk, cmyk.length);
    const display = lcms.cmsCreate_sRGBProfile();
    const show = lcms.cmsCreateTransform(paper, TYPE_CMYK_8, display, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, 0);
    const reference = lcms.cmsDoTransform(show, new Uint8Array(onPaper), patches.length);
    const ours = engine.proof(rgba, null, { key: 'cmyk', bytes: cmyk }, 'perceptual');
    // An 8-bit CMYK step on the lab's side is the whole difference: the engine never quantises.
    const { mean, p99 } = summarise(pixelDifferences(ours.pixels, toRgba(reference), 4));
    expect(mean).toBeLessThan(0.5);
    expect(p99).toBeLessThan(2);
  });

  it('keeps neutral greys neutral, paper white as white, and lifts black to the paper’s black (relative + BPC)', () => {
    const ours = engine.proof(Uint8Array.from(NEUTRALS.flatMap((c) => [...c, 255])), null, { key: 'cmyk', bytes: cmyk }, 'relative');
    NEUTRALS.forEach((_, i) => {
      const [L, a, b] = srgbToLab(...(pixel(ours.pixels, i) as [number, number, number]));
      expect(Math.hypot(a, b), `grey ${NEUTRALS[i]?.[0]} at L ${L.toFixed(1)}`).toBeLessThan(2);
    });
    expect(pixel(ours.pixels, NEUTRALS.length - 1)).toEqual([255, 255, 255]);
    // Ink on paper is never the screen's black.
    expect(srgbToLab(...(pixel(ours.pixels, 0) as [number, number, number]))[0]).toBeGreaterThan(5);
  });

  it('gives every pixel, inside the gamut or not, the colour of printing then viewing in LittleCMS', () => {
    // Two LittleCMS transforms per pixel: the photo into the paper's 16-bit inks (relative + BPC),
    // then the inks to sRGB. The engine interpolates the same on its grid.
    const display = lcms.cmsCreate_sRGBProfile();
    const paper = lcms.cmsOpenProfileFromMem(cmyk, cmyk.length);
    const print = lcms.cmsCreateTransform(display, TYPE_RGB_8, paper, TYPE_CMYK_16, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_BLACKPOINTCOMPENSATION);
    const view = lcms.cmsCreateTransform(paper, TYPE_CMYK_16, display, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, 0);
    const expected = lcms.cmsDoTransform(view, lcms.cmsDoTransform(print, rgb, patches.length), patches.length);
    const ours = engine.proof(rgba, null, { key: 'cmyk', bytes: cmyk }, 'relative');
    const { mean, max } = summarise(pixelDifferences(ours.pixels, toRgba(expected), 4));
    expect(mean).toBeLessThan(0.2);
    expect(max).toBeLessThan(1);
  });
});

describe('the proof on a matrix RGB printer (the narrow test paper)', () => {
  it('clips colours the paper cannot print as libvips printing them then LittleCMS showing them does', async () => {
    // The lab's side: libvips converts the photo into the paper's 8-bit RGB (its device values,
    // clipped to what it can print), then LittleCMS shows those values on sRGB.
    const saturated: [number, number, number][] = [[0, 0, 255], [0, 255, 0], [255, 0, 0], [0, 255, 255], [255, 0, 255], [255, 255, 0], [40, 90, 220], [20, 160, 60]];
    const flat = Uint8Array.from(saturated.flat());
    writeFileSync(join(dir, 'narrow.icc'), narrow);
    const onPaper = await sharp(Buffer.from(flat), { raw: { width: saturated.length, height: 1, channels: 3 } }).withIccProfile(join(dir, 'narrow.icc')).raw().toBuffer();
    const paper = lcms.cmsOpenProfileFromMem(narrow, narrow.length);
    const display = lcms.cmsCreate_sRGBProfile();
    const view = lcms.cmsCreateTransform(paper, TYPE_RGB_8, display, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, 0);
    const reference = toRgba(lcms.cmsDoTransform(view, new Uint8Array(onPaper), saturated.length));
    const colours = Uint8Array.from(saturated.flatMap((c) => [...c, 255]));
    const ours = engine.proof(colours, null, { key: 'narrow', bytes: narrow }, 'perceptual');
    expect(ours.outside.length).toBeGreaterThan(saturated.length / 2);
    // Each colour within an 8-bit step of the lab's paper values.
    expect(summarise(pixelDifferences(ours.pixels, reference, 4)).max).toBeLessThan(1.5);
    // LittleCMS's joined proofing transform does not clip them: it shows what the paper cannot print.
    const joinedProof = lcms.cmsCreateProofingTransform(display, TYPE_RGBA_8, display, TYPE_RGBA_8, paper, INTENT_PERCEPTUAL, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_SOFTPROOFING | cmsFLAGS_COPY_ALPHA);
    const joined = lcms.cmsDoTransform(joinedProof, colours, saturated.length);
    expect(summarise(pixelDifferences(joined, reference, 4)).max).toBeGreaterThan(3);
  });
});

describe('the gamut warning', () => {
  it.each([
    ['cmyk', () => cmyk],
    ['narrow', () => narrow],
  ])('finds a saturated blue and green outside the %s paper, and a mid grey and a skin tone inside', (key, bytes) => {
    const colours: [number, number, number][] = [[0, 0, 255], [0, 255, 0], [128, 128, 128], [224, 172, 138]];
    const ours = engine.proof(Uint8Array.from(colours.flatMap((c) => [...c, 255])), null, { key, bytes: bytes() }, 'relative');
    expect(Array.from(ours.outside)).toEqual([0, 1]);
    // The proofed colour of the pixels outside is theirs, not LittleCMS's alarm grey.
    expect(pixel(ours.pixels, 0)).not.toEqual([ALARM, ALARM, ALARM]);
    const marked = markGamut(ours, parseGamutColour('#f0f'));
    expect([pixel(marked, 0), pixel(marked, 1)]).toEqual([[255, 0, 255], [255, 0, 255]]);
    expect(pixel(marked, 2)).toEqual(pixel(ours.pixels, 2));
  });

  it('agrees with LittleCMS’s gamut check of each pixel, but for colours on the gamut’s edge', () => {
    // 4,096 colours from a fixed linear congruential sequence, judged by the engine's grid and by
    // LittleCMS's gamut-check transform pixel by pixel.
    let seed = 35;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) >> 23;
    const count = 4096;
    const colours = Uint8Array.from({ length: count * 4 }, (_, i) => (i % 4 === 3 ? 255 : next()));
    const ours = new Set(engine.proof(colours, null, { key: 'narrow', bytes: narrow }, 'relative').outside);
    const display = lcms.cmsCreate_sRGBProfile();
    const paper = lcms.cmsOpenProfileFromMem(narrow, narrow.length);
    const flags = cmsFLAGS_SOFTPROOFING | cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_COPY_ALPHA;
    const make = (extra: number) => lcms.cmsCreateProofingTransform(display, TYPE_RGBA_8, display, TYPE_RGBA_8, paper, INTENT_RELATIVE_COLORIMETRIC, INTENT_RELATIVE_COLORIMETRIC, flags | extra);
    const checked = lcms.cmsDoTransform(make(cmsFLAGS_GAMUTCHECK), colours, count);
    const plain = lcms.cmsDoTransform(make(0), colours, count);
    const alarm = (px: ArrayLike<number>, i: number) => px[i * 4] === ALARM && px[i * 4 + 1] === ALARM && px[i * 4 + 2] === ALARM;
    let disagree = 0;
    let outside = 0;
    for (let i = 0; i < count; i++) {
      const exact = alarm(checked, i) && !alarm(plain, i);
      if (exact) outside += 1;
      if (exact !== ours.has(i)) disagree += 1;
    }
    expect(outside).toBeGreaterThan(count / 10);
    // A pixel is judged by a grid node at most two levels away: only edge colours can differ.
    expect(disagree / count).toBeLessThan(0.03);
  });

  it('tells LittleCMS’s alarm grey from a photo’s own grey of the same value', () => {
    // sRGB 127 proofs to about 127 on the narrow paper; whatever it proofs to, it is inside.
    const greys = Uint8Array.from([120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130].flatMap((v) => [v, v, v, 255]));
    expect(Array.from(engine.proof(greys, null, { key: 'narrow', bytes: narrow }, 'relative').outside)).toEqual([]);
  });

  it('takes CSS hex colours and refuses anything else with the reason', () => {
    expect(parseGamutColour('#FF00ff')).toEqual([255, 0, 255]);
    expect(parseGamutColour('#0f0')).toEqual([0, 255, 0]);
    expect(() => parseGamutColour('magenta')).toThrow(/CSS hex colour such as #ff00ff/);
  });
});

describe('the photo’s own profile', () => {
  it('proofs an Adobe RGB photo through its profile: its muted green is greener than sRGB’s', () => {
    // A green the narrow paper holds either way (a full green clips to the paper's own in both).
    const adobe = readFixture('adobe-rgb-compatible.icc');
    const green = Uint8Array.from([90, 150, 90, 255]);
    const asAdobe = engine.proof(green, adobe, { key: 'narrow', bytes: narrow }, 'relative');
    const asSrgb = engine.proof(green, null, { key: 'narrow', bytes: narrow }, 'relative');
    expect(asAdobe.outside).toHaveLength(0);
    expect(asSrgb.outside).toHaveLength(0);
    const [, a] = srgbToLab(...(pixel(asAdobe.pixels, 0) as [number, number, number]));
    const [, s] = srgbToLab(...(pixel(asSrgb.pixels, 0) as [number, number, number]));
    expect(a).toBeLessThan(s - 3);
  });

  it('refuses a paper profile LittleCMS cannot read, with the paper named', () => {
    expect(() => engine.proof(rgba, null, { key: 'not-a-profile', bytes: new Uint8Array(200) }, 'relative')).toThrow(/not-a-profile/);
  });
});
