import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { JpegEndScanner } from '../../../server/services/jpeg-end.ts';
import { withExifPreview } from '../fixtures/exif-jpeg.ts';

/** Noise compresses like a detailed photo: many 0xFF bytes stuffed in the image data. */
const noisy = (width: number, height: number, progressive = false) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95, progressive })
    .toBuffer();

function reachesEnd(bytes: Uint8Array, chunk: number): boolean {
  const scanner = new JpegEndScanner();
  const buffer = Buffer.from(bytes);
  for (let at = 0; at < buffer.length; at += chunk) scanner.push(buffer.subarray(at, at + chunk));
  return scanner.complete;
}

const CHUNKS = [1, 3, 7, 4096, 1 << 20];

describe('a JPEG reaching its end marker, read in one pass', () => {
  it('is complete when whole, however the bytes are cut into chunks (baseline and progressive)', async () => {
    for (const jpeg of [await noisy(300, 200), await noisy(300, 200, true)]) {
      for (const chunk of CHUNKS) expect(reachesEnd(jpeg, chunk)).toBe(true);
    }
  });

  it('is not complete when cut off, even when an embedded EXIF preview has its own end marker', async () => {
    const preview = new Uint8Array(await noisy(160, 120));
    const jpeg = withExifPreview(new Uint8Array(await noisy(300, 200)), preview);
    expect(reachesEnd(jpeg, 4096)).toBe(true);
    for (const keep of [0.3, 0.6, 0.99]) {
      for (const chunk of CHUNKS) expect(reachesEnd(jpeg.subarray(0, Math.floor(jpeg.length * keep)), chunk)).toBe(false);
    }
    expect(reachesEnd(jpeg.subarray(0, jpeg.length - 2), 4096)).toBe(false);
  });

  it('ignores what follows the end (a motion photo’s video), and is not fooled by a file that is no JPEG', async () => {
    const jpeg = await noisy(200, 150);
    expect(reachesEnd(Buffer.concat([jpeg, randomBytes(50_000)]), 4096)).toBe(true);
    expect(reachesEnd(randomBytes(10_000), 4096)).toBe(false);
  });
});
