import { instantiate, type Lcms } from 'lcms-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkPaperProfile as checkWith } from '../../../server/services/paper-profile-check.ts';
import { PAPER_PROFILE_MAX_BYTES } from '../../../src/domain/paper-profile.ts';
import { readFixture } from '../../fixtures/icc/test-profiles.ts';
import { cmykPrinterProfile, srgbDisplayProfile, withoutColourTables } from '../../api/paper-profile-files.ts';

let lcms: Lcms;
beforeAll(async () => {
  lcms = await instantiate();
});
const checkPaperProfile = (bytes: Buffer) => checkWith(bytes, lcms);

/** A paper's ICC profile as it arrives: what the lab keeps and what it refuses, with the reason. */
describe('checkPaperProfile', () => {
  it("takes libvips's CMYK printer profile", async () => {
    expect(checkPaperProfile(await cmykPrinterProfile())).toEqual({ ok: true, profile: { colourSpace: 'CMYK', description: 'Chemical proof' } });
  });

  it('refuses a display profile, naming its class', async () => {
    expect(checkPaperProfile(await srgbDisplayProfile())).toEqual({ ok: false, reason: expect.stringMatching(/its class is Monitor/) });
  });

  it('refuses a profile whose tag table points past its end, though its header reads', async () => {
    const damaged = Buffer.from(await cmykPrinterProfile());
    // The first tag's offset (tag table at byte 128: count, then signature, offset, size).
    damaged.writeUInt32BE(damaged.length - 4, 128 + 4 + 4);
    expect(checkPaperProfile(damaged)).toEqual({ ok: false, reason: expect.stringMatching(/cannot be read. A tag lies outside the file/) });
  });

  it('takes an RGB printer profile (matrix and curves)', () => {
    expect(checkPaperProfile(Buffer.from(readFixture('narrow-printer.icc')))).toEqual({ ok: true, profile: { colourSpace: 'RGB', description: 'Test matte paper (narrow RGB printer)' } });
  });

  it('refuses a printer profile that reads but that LittleCMS cannot proof through, naming the intent', async () => {
    expect(checkPaperProfile(withoutColourTables(await cmykPrinterProfile()))).toEqual({
      ok: false,
      reason: expect.stringMatching(/^LittleCMS cannot proof through this profile \(relative colorimetric\): its colour tables are missing or damaged/),
    });
  });

  it('refuses a file over the limit before parsing it', () => {
    expect(checkPaperProfile(Buffer.alloc(PAPER_PROFILE_MAX_BYTES + 1))).toEqual({ ok: false, reason: 'This profile is larger than 8 MB.' });
  });

  it('refuses what is not a profile', () => {
    expect(checkPaperProfile(Buffer.from('GIF89a, not a colour profile'))).toEqual({ ok: false, reason: 'This file is not an ICC profile.' });
  });
});
