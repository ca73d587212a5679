import icc from 'icc';
import { describe, expect, it } from 'vitest';
import { iccFromJpeg, profileKey } from '../../../src/proof/worker/photo-profile.ts';
import { ciede2000 } from '../../fixtures/icc/delta-e.ts';
import { matrixProfile } from '../../fixtures/icc/matrix-profile.ts';
import { patchJpeg, patchPixels, withIcc } from '../../fixtures/icc/proof-photos.ts';
import { ADOBE_RGB, NARROW_PRINTER, libvipsProfile, readFixture } from '../../fixtures/icc/test-profiles.ts';

describe('the test profiles', () => {
  it('are what make-test-profiles.ts writes, byte for byte', () => {
    expect(matrixProfile(NARROW_PRINTER)).toEqual(readFixture('narrow-printer.icc'));
    expect(matrixProfile(ADOBE_RGB)).toEqual(readFixture('adobe-rgb-compatible.icc'));
  });

  it('parse as an RGB printer profile and an RGB display profile', () => {
    expect(icc.parse(Buffer.from(readFixture('narrow-printer.icc')))).toMatchObject({ deviceClass: 'Printer', colorSpace: 'RGB', connectionSpace: 'XYZ' });
    expect(icc.parse(Buffer.from(readFixture('adobe-rgb-compatible.icc')))).toMatchObject({ deviceClass: 'Monitor', colorSpace: 'RGB' });
  });

  it('reads libvips’s CMYK output profile back from sharp', async () => {
    expect(icc.parse(Buffer.from(await libvipsProfile('cmyk')))).toMatchObject({ deviceClass: 'Printer', colorSpace: 'CMYK' });
  });
});

describe('iccFromJpeg', () => {
  it('reassembles a profile split over many APP2 pieces, and answers null without one', async () => {
    const jpeg = await patchJpeg(patchPixels([[10, 20, 30]]), null);
    const cmyk = await libvipsProfile('cmyk');
    expect(iccFromJpeg(jpeg)).toBeNull();
    const found = iccFromJpeg(withIcc(jpeg, cmyk)) ?? new Uint8Array();
    // Buffer's compare: a deep equality of a megabyte, element by element, takes seconds.
    expect(Buffer.compare(found, cmyk)).toBe(0);
    expect(profileKey(found)).toBe(profileKey(cmyk));
  });

  it('answers null (sRGB) when a piece is missing', async () => {
    const jpeg = await patchJpeg(patchPixels([[10, 20, 30]]), null);
    const whole = withIcc(jpeg, await libvipsProfile('cmyk'));
    // Drop the first piece: from the end of SOI, one segment of 2 + its length.
    const length = ((whole[4] ?? 0) << 8) | (whole[5] ?? 0);
    const cut = new Uint8Array([...whole.subarray(0, 2), ...whole.subarray(2 + 2 + length)]);
    expect(iccFromJpeg(cut)).toBeNull();
  });
});

describe('ciede2000', () => {
  // Sharma, Wu and Dalal (2005), Table 1: pairs 1, 7, 17 and 25.
  it.each([
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
  ] as const)('%j to %j is %f', (a, b, expected) => {
    expect(ciede2000([...a], [...b])).toBeCloseTo(expected, 4);
  });
});
