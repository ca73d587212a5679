import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CROP, centredCrop } from '../../src/domain/crop.ts';
import {
  PPI_CONFIRM_BELOW,
  PPI_WARN_BELOW,
  cropResolution,
  effectivePpi,
  formatPpi,
  resolutionCheck,
  worstResolution,
} from '../../src/domain/print-resolution.ts';

const photo24mp = { width: 6000, height: 4000 };

describe('effective pixels per inch', () => {
  it.each([
    // A 24 MP camera file, whole, on a 4x6: 1000 ppi.
    [photo24mp, DEFAULT_CROP, { width: 4, height: 6 }, 1000],
    // The same at 20x30: 200 ppi; the orientation of the print does not matter.
    [photo24mp, DEFAULT_CROP, { width: 20, height: 30 }, 200],
    [photo24mp, DEFAULT_CROP, { width: 30, height: 20 }, 200],
    // Half the width and height of the photo at 8x12 (landscape crop of 3000x2000): 250 ppi.
    [photo24mp, { x: 25, y: 25, width: 50, height: 50 }, { width: 8, height: 12 }, 250],
    // The whole 3:2 photo on an 8x10: the short side limits (4000 px / 8 in = 500, not 6000 / 10 = 600).
    [photo24mp, DEFAULT_CROP, { width: 8, height: 10 }, 500],
  ])('%o cropped %o at %o → %f', (photo, crop, print, ppi) => expect(effectivePpi(photo, crop, print)).toBeCloseTo(ppi, 9));

  it('refuses photos and prints without size', () => {
    expect(() => effectivePpi({ width: 0, height: 10 }, DEFAULT_CROP, { width: 8, height: 10 })).toThrow(RangeError);
    expect(() => effectivePpi(photo24mp, DEFAULT_CROP, { width: 0, height: 10 })).toThrow(RangeError);
  });

  const photoArb = fc.record({ width: fc.integer({ min: 100, max: 20_000 }), height: fc.integer({ min: 100, max: 20_000 }) });
  const printArb = fc.record({ width: fc.integer({ min: 2, max: 60 }), height: fc.integer({ min: 2, max: 60 }) });

  it('scales inversely with the print size', () => {
    fc.assert(
      fc.property(photoArb, printArb, fc.integer({ min: 2, max: 10 }), (photo, print, k) => {
        const crop = centredCrop(photo, print.width / print.height);
        const base = effectivePpi(photo, crop, print);
        const larger = effectivePpi(photo, crop, { width: print.width * k, height: print.height * k });
        expect(larger).toBeCloseTo(base / k, 6);
      }),
    );
  });

  it('never rises when the crop is tightened', () => {
    fc.assert(
      fc.property(photoArb, printArb, fc.double({ min: 0.05, max: 1, noNaN: true }), (photo, print, f) => {
        const whole = effectivePpi(photo, DEFAULT_CROP, print);
        const tight = effectivePpi(photo, { x: 0, y: 0, width: 100 * f, height: 100 * f }, print);
        expect(tight).toBeLessThanOrEqual(whole + 1e-9);
        expect(tight).toBeCloseTo(whole * f, 6);
      }),
    );
  });

  it('does not depend on the orientation of the print', () => {
    fc.assert(
      fc.property(photoArb, printArb, (photo, print) => {
        expect(effectivePpi(photo, DEFAULT_CROP, print)).toBeCloseTo(effectivePpi(photo, DEFAULT_CROP, { width: print.height, height: print.width }), 9);
      }),
    );
  });
});

describe('resolution levels', () => {
  it('warns below 200 and asks for confirmation below 100, on the whole ppi shown', () => {
    expect(PPI_WARN_BELOW).toBe(200);
    expect(PPI_CONFIRM_BELOW).toBe(100);
    expect(resolutionCheck(300, '8x10')).toEqual({ ppi: 300, level: 'ok', message: null });
    expect(resolutionCheck(200, '8x10').level).toBe('ok');
    expect(resolutionCheck(199.99, '8x10').level).toBe('warn');
    expect(resolutionCheck(100, '8x10').level).toBe('warn');
    expect(resolutionCheck(99.9, '8x10').level).toBe('confirm');
    expect(resolutionCheck(0.5, '8x10').ppi).toBe(0);
  });

  it('says how many ppi, at which size, and what to do', () => {
    expect(formatPpi(181.7)).toBe('181 ppi');
    expect(resolutionCheck(181.7, '16x20').message).toBe(
      'Low resolution: this crop prints at 181 ppi at 16x20 (200 ppi or more looks sharp). A looser crop or a smaller print size will look sharper.',
    );
    expect(resolutionCheck(72, '24x36').message).toBe(
      'Very low resolution: this crop prints at only 72 ppi at 24x36, below 100 ppi, so the print will look visibly soft or pixelated. Add it to the cart anyway?',
    );
  });

  it('checks a crop on a paper and size, gallery wraps at their printed size', () => {
    // 20x30 of the whole 24 MP photo: 200 ppi.
    expect(cropResolution(photo24mp, DEFAULT_CROP, 'Lustre', '20x30')?.level).toBe('ok');
    // A 16x24 gallery wrap is printed 20x28: 4000 / 20 = 200, 6000 / 28 ≈ 214 → 200.
    expect(cropResolution(photo24mp, DEFAULT_CROP, 'Canvas - Gallery Wrap', '16x24')?.ppi).toBe(200);
    expect(cropResolution(photo24mp, DEFAULT_CROP, 'Canvas - White Wrap', '16x24')?.ppi).toBe(250);
    expect(cropResolution(null, DEFAULT_CROP, 'Lustre', '8x10')).toBeNull();
    expect(cropResolution(photo24mp, DEFAULT_CROP, 'Lustre', 'Poster')).toBeNull();
  });

  it('picks the worst of several photos', () => {
    const checks = [resolutionCheck(450, '8x10'), null, resolutionCheck(150, '8x10'), resolutionCheck(90, '8x10')];
    expect(worstResolution(checks)?.ppi).toBe(90);
    expect(worstResolution([null])).toBeNull();
  });
});
