import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kindRefusal, sniffFileType, truncationRefusal } from '../../server/services/file-types.ts';
import { MAX_IMAGE_PIXELS, checkFileEnds, inspectImage } from '../../server/services/file-checks.ts';
import { decompressionBombPng, minimalPdf, noisyJpeg, smallPng, textFile } from './hostile-files.ts';

/** The shared file checks, called directly (the certificate uses them now, photo uploads next). */
const dir = mkdtempSync(join(tmpdir(), 'file-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const reader = (bytes: Buffer) => ({
  readStart: async (n: number) => bytes.subarray(0, n),
  readEnd: async (n: number) => bytes.subarray(Math.max(0, bytes.length - n)),
});

describe('the type of a file, by its bytes', () => {
  it('tells the accepted kinds and the usual wrong ones apart', async () => {
    expect(sniffFileType(await noisyJpeg(16, 16))).toBe('jpeg');
    expect(sniffFileType(await smallPng())).toBe('png');
    expect(sniffFileType(minimalPdf())).toBe('pdf');
    expect(sniffFileType(textFile())).toBe('text');
    expect(sniffFileType(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe('gif');
    expect(sniffFileType(Buffer.from('\x00\x00\x00\x18ftypheic', 'latin1'))).toBe('heic');
    expect(sniffFileType(Buffer.from('II*\x00\x08\x00', 'latin1'))).toBe('tiff');
    expect(sniffFileType(Buffer.alloc(0))).toBe('empty');
    expect(sniffFileType(Buffer.from([0x00, 0x01, 0x02, 0x03]))).toBe('unknown');
  });

  it('says what a refused file really is', async () => {
    expect(kindRefusal(sniffFileType(textFile()), ['jpeg', 'png'], 'A photo')).toBe('A photo must be a JPEG or PNG file. This file is a text file.');
    expect(kindRefusal(sniffFileType(await smallPng()), ['pdf'], 'The blanket certificate of resale')).toBe(
      'The blanket certificate of resale must be a PDF file. This file is a PNG image.',
    );
    expect(kindRefusal('png', ['jpeg', 'png'], 'A photo')).toBeNull();
  });

  it('tells a complete PDF or PNG from a cut-off one', async () => {
    const pdf = minimalPdf();
    expect(truncationRefusal('pdf', pdf)).toBeNull();
    expect(truncationRefusal('pdf', pdf.subarray(0, 30))).toMatch(/^This PDF is incomplete/);
    const png = await smallPng();
    expect(truncationRefusal('png', png)).toBeNull();
    expect(truncationRefusal('png', png.subarray(0, png.length - 12))).toMatch(/^This PNG image is incomplete/);
    expect(await checkFileEnds(reader(pdf.subarray(0, 40)), ['pdf'], 'The certificate')).toEqual({ ok: false, reason: expect.stringMatching(/incomplete/) });
    expect(await checkFileEnds(reader(pdf), ['pdf'], 'The certificate')).toEqual({ ok: true, kind: 'pdf' });
  });
});

describe('photos (JPEG or PNG, complete, not a decompression bomb)', () => {
  it('accepts a real JPEG and PNG, from a buffer or a file', async () => {
    const jpeg = await noisyJpeg();
    expect(await inspectImage(jpeg)).toEqual({ ok: true, kind: 'jpeg', width: 600, height: 400 });
    const path = join(dir, 'photo.png');
    writeFileSync(path, await smallPng());
    expect(await inspectImage(path)).toEqual({ ok: true, kind: 'png', width: 40, height: 30 });
  });

  it('refuses a text file named .jpg', async () => {
    const path = join(dir, 'holiday.jpg');
    writeFileSync(path, textFile());
    expect(await inspectImage(path)).toEqual({ ok: false, reason: 'A photo must be a JPEG or PNG file. This file is a text file.' });
  });

  it('refuses a PDF named .png', async () => {
    expect(await inspectImage(minimalPdf())).toEqual({ ok: false, reason: 'A photo must be a JPEG or PNG file. This file is a PDF document.' });
  });

  it('refuses a JPEG cut off half-way', async () => {
    const jpeg = await noisyJpeg();
    const verdict = await inspectImage(jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    expect(verdict).toEqual({ ok: false, reason: 'A photo is incomplete or damaged: the upload may have been cut off. Please upload it again.' });
  });

  it('refuses a decompression bomb from its header, without decoding it', async () => {
    const bomb = decompressionBombPng();
    expect(bomb.length).toBeLessThan(200_000);
    const started = Date.now();
    const verdict = await inspectImage(bomb);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(verdict).toEqual({
      ok: false,
      reason: `A photo is 20000 × 20000 pixels (400 megapixels); the lab takes images up to ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`,
    });
  });
});
