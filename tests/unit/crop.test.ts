import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CROP,
  centredCrop,
  cropAspect,
  cropOptions,
  cropPixels,
  cropProblem,
  cropShape,
  normaliseCrop,
  printedInches,
  round2,
  startingCrop,
  startsFlipped,
} from '../../src/domain/crop.ts';
import { isLandscape, longShort, parsePrintSize } from '../../src/domain/print-size.ts';

const size = (x: number, y: number) => ({ x_aspect: x, y_aspect: y });

describe('print size names', () => {
  it.each([
    ['8x10', { width: 8, height: 10 }],
    ['16x24', { width: 16, height: 24 }],
    ['11x14', { width: 11, height: 14 }],
    ['8 x 10', { width: 8, height: 10 }],
    ['8"x10"', { width: 8, height: 10 }],
    ['8.5X11', { width: 8.5, height: 11 }],
    ['10×8', { width: 10, height: 8 }],
  ])('reads %s', (name, inches) => expect(parsePrintSize(name)).toEqual(inches));

  it.each(['', 'Large', '8x', 'x10', '0x10', '8x10x12', '8-10', '-8x10'])('refuses %j', (name) => expect(parsePrintSize(name)).toBeNull());

  it('orders sides long first and tells landscape', () => {
    expect(longShort({ width: 8, height: 10 })).toEqual([10, 8]);
    expect(longShort({ width: 12, height: 5 })).toEqual([12, 5]);
    expect(isLandscape({ width: 12, height: 5 })).toBe(true);
    expect(isLandscape({ width: 5, height: 5 })).toBe(false);
  });
});

describe('crop aspect (docs/orders.md §5)', () => {
  it.each([
    ['Lustre', 8, 10, false, 0.8],
    ['Lustre', 8, 10, true, 1.25],
    ['Lustre', 16, 24, false, 16 / 24],
    ['Canvas - Gallery Wrap', 16, 24, false, 20 / 28],
    ['Canvas - Gallery Wrap', 16, 24, true, 28 / 20],
    ['Canvas - Gallery Wrap', 24, 16, false, 28 / 20],
    ['Canvas - Gallery Wrap', 16, 20, false, 0.8],
    ['Canvas - White Wrap', 16, 24, false, 16 / 24],
    ['Deckled Circle', 8, 8, false, 1],
  ])('%s %ix%i flipped=%s → %f', (paper, x, y, flipped, aspect) => expect(cropAspect(paper, size(x, y), flipped)).toBeCloseTo(aspect, 12));

  it('refuses a print size without aspects', () => {
    expect(() => cropAspect('Lustre', size(0, 10), false)).toThrow(RangeError);
  });

  it('flipping twice is the identity', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 60 }), fc.constantFrom('Lustre', 'Canvas - Gallery Wrap'), (x, y, paper) => {
        const a = cropAspect(paper, size(x, y), false);
        expect(cropAspect(paper, size(x, y), true)).toBeCloseTo(1 / a, 12);
        expect(1 / (1 / a)).toBeCloseTo(a, 12);
      }),
    );
  });

  it('prints a 16x24 gallery wrap as 20x28, other sizes and papers as named', () => {
    expect(printedInches('Canvas - Gallery Wrap', '16x24')).toEqual({ width: 20, height: 28 });
    expect(printedInches('Canvas - Gallery Wrap', '24x16')).toEqual({ width: 28, height: 20 });
    expect(printedInches('Canvas - Gallery Wrap', '16x20')).toEqual({ width: 16, height: 20 });
    expect(printedInches('Canvas - Mirror Wrap', '16x24')).toEqual({ width: 16, height: 24 });
    expect(printedInches('Lustre', 'Large')).toBeNull();
  });

  it.each([
    ['Deckled Circle', 'round'],
    ['Deckled Circle - Border', 'round'],
    ['deckled circle with border', 'round'],
    ['Lustre', 'rect'],
    ['Canvas - Gallery Wrap', 'rect'],
  ])('%s crops %s', (paper, shape) => expect(cropShape(paper)).toBe(shape));

  it('gathers the crop options of an image', () => {
    expect(cropOptions('Deckled Circle', size(8, 8), false)).toEqual({
      x_aspect: 8,
      y_aspect: 8,
      aspect: 1,
      unit: '%',
      selectedPaper: 'Deckled Circle',
      shape: 'round',
      flipped: false,
    });
  });

  it.each([
    [{ width: 6000, height: 4000 }, size(8, 10), true],
    [{ width: 4000, height: 6000 }, size(8, 10), false],
    [{ width: 4000, height: 6000 }, size(10, 8), true],
    [{ width: 4000, height: 4000 }, size(8, 10), false],
    [{ width: 6000, height: 4000 }, size(8, 8), false],
  ])('photo %o on %o starts flipped: %s', (photo, s, flipped) => expect(startsFlipped(photo, s)).toBe(flipped));
});

describe('crop values', () => {
  it('defaults to the whole photo', () => {
    expect(DEFAULT_CROP).toEqual({ x: 0, y: 0, width: 100, height: 100 });
    expect(startingCrop(null, 'Lustre', size(8, 10), false)).toEqual(DEFAULT_CROP);
    expect(startingCrop({ width: 0, height: 0 }, 'Lustre', size(8, 10), false)).toEqual(DEFAULT_CROP);
  });

  it('rounds to 2 decimals and keeps the crop inside the photo', () => {
    expect(round2(12.3456)).toBe(12.35);
    expect(normaliseCrop({ x: 10.123, y: 5.555, width: 80.129, height: 90.001 })).toEqual({ x: 10.12, y: 5.56, width: 80.13, height: 90 });
    expect(normaliseCrop({ x: -0.0001, y: 0, width: 100.0002, height: 100 })).toEqual({ x: 0, y: 0, width: 100, height: 100 });
    expect(normaliseCrop({ x: 33.335, y: 0, width: 66.668, height: 100 })).toEqual({ x: 33.34, y: 0, width: 66.66, height: 100 });
    expect(normaliseCrop({ x: Number.NaN, y: 0, width: 0, height: 100 })).toEqual({ x: 0, y: 0, width: 0.01, height: 100 });
  });

  it.each([
    [{ x: 0, y: 0, width: 100, height: 100 }, null],
    [{ x: 10, y: 20, width: 50.5, height: 80 }, null],
    [{ x: -1, y: 0, width: 50, height: 50 }, 'The crop must lie inside the photo (percent values from 0 to 100).'],
    [{ x: 60, y: 0, width: 50, height: 50 }, 'The crop must lie inside the photo (percent values from 0 to 100).'],
    [{ x: 0, y: 0, width: 0, height: 50 }, 'The crop must lie inside the photo (percent values from 0 to 100).'],
    [{ x: 0, y: 0, width: Number.NaN, height: 50 }, 'The crop must be given in numbers.'],
  ])('crop %o: problem %j', (area, problem) => expect(cropProblem(area)).toBe(problem));

  it.each([
    // 3:2 landscape photo on a portrait 8x10: full height, 53.33% wide, centred.
    [{ width: 6000, height: 4000 }, 0.8, { x: 23.34, y: 0, width: 53.33, height: 100 }],
    // Same photo on a landscape 10x8: full height again, 83.33% wide.
    [{ width: 6000, height: 4000 }, 1.25, { x: 8.34, y: 0, width: 83.33, height: 100 }],
    // Portrait 2:3 photo on 8x10: full width, 83.33% high.
    [{ width: 4000, height: 6000 }, 0.8, { x: 0, y: 8.34, width: 100, height: 83.33 }],
    [{ width: 4000, height: 5000 }, 0.8, { x: 0, y: 0, width: 100, height: 100 }],
  ])('centres the largest crop on %o at aspect %f', (photo, aspect, crop) => expect(centredCrop(photo, aspect)).toEqual(crop));

  it('refuses a photo without pixels or a senseless aspect', () => {
    expect(() => centredCrop({ width: 0, height: 10 }, 1)).toThrow(RangeError);
    expect(() => centredCrop({ width: 10, height: 10 }, 0)).toThrow(RangeError);
    expect(() => centredCrop({ width: 10, height: 10 }, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('turns a crop into whole pixels inside the photo', () => {
    expect(cropPixels({ width: 6000, height: 4000 }, { x: 23.34, y: 0, width: 53.33, height: 100 })).toEqual({ left: 1400, top: 0, width: 3200, height: 4000 });
    expect(cropPixels({ width: 10, height: 10 }, { x: 99.99, y: 0, width: 0.01, height: 100 })).toEqual({ left: 9, top: 0, width: 1, height: 10 });
  });
});

const photoArb = fc.record({ width: fc.integer({ min: 1, max: 20_000 }), height: fc.integer({ min: 1, max: 20_000 }) });
const aspectArb = fc.double({ min: 0.05, max: 20, noNaN: true });

describe('largest centred crop (properties)', () => {
  it('always fits inside the photo, with 2 decimals, and no crop passes the server check', () => {
    fc.assert(
      fc.property(photoArb, aspectArb, (photo, aspect) => {
        const c = centredCrop(photo, aspect);
        for (const v of [c.x, c.y, c.width, c.height]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(round2(v)).toBe(v);
        }
        expect(c.width).toBeGreaterThan(0);
        expect(c.height).toBeGreaterThan(0);
        expect(c.x + c.width).toBeLessThanOrEqual(100 + 1e-9);
        expect(c.y + c.height).toBeLessThanOrEqual(100 + 1e-9);
        expect(cropProblem(c)).toBeNull();
        expect(normaliseCrop(c)).toEqual(c);
      }),
    );
  });

  it('takes the whole of one side and is centred on the other', () => {
    fc.assert(
      fc.property(photoArb, aspectArb, (photo, aspect) => {
        const c = centredCrop(photo, aspect);
        expect(c.width === 100 || c.height === 100).toBe(true);
        expect(Math.abs(c.x - (100 - c.width - c.x))).toBeLessThanOrEqual(0.02 + 1e-9);
        expect(Math.abs(c.y - (100 - c.height - c.y))).toBeLessThanOrEqual(0.02 + 1e-9);
      }),
    );
  });

  it('has the requested aspect within the 0.01% rounding of its shorter side', () => {
    fc.assert(
      fc.property(photoArb, aspectArb, (photo, aspect) => {
        const c = centredCrop(photo, aspect);
        // A side held at the 0.01 floor has no aspect worth comparing.
        fc.pre(Math.min(c.width, c.height) > 0.01);
        const got = ((c.width / 100) * photo.width) / ((c.height / 100) * photo.height);
        // A side rounded down by at most 0.01 percentage points (or raised to the 0.01 floor).
        const tolerance = 0.01 / Math.min(c.width, c.height) + 1e-9;
        expect(Math.abs(got - aspect) / aspect).toBeLessThanOrEqual(tolerance);
      }),
    );
  });

  it('a normalised crop always passes the server check', () => {
    const anyNumber = fc.double({ min: -1e6, max: 1e6 });
    fc.assert(
      fc.property(fc.record({ x: anyNumber, y: anyNumber, width: anyNumber, height: anyNumber }), (area) => {
        expect(cropProblem(normaliseCrop(area))).toBeNull();
      }),
    );
  });
});
