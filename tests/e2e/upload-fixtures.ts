/**
 * Photos for the upload tests and the benchmark, made with sharp: small distinct JPEGs (some with
 * an embedded EXIF preview, as cameras write them), large ones above the multipart threshold, and
 * a text file named .jpg. Noise makes JPEGs as large as real photos of the same size.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { withExifPreview } from '../unit/fixtures/exif-jpeg.ts';

export const photoDir = () => mkdtempSync(join(tmpdir(), 'lab-photos-'));

const noise = (width: number, height: number) => sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });

/** `count` small JPEGs, each different; every other one carries an EXIF preview. */
export async function smallPhotos(dir: string, count: number, prefix = 'IMG_'): Promise<string[]> {
  const preview = new Uint8Array(await noise(160, 120).jpeg({ quality: 70 }).toBuffer());
  const paths: string[] = [];
  for (let i = 1; i <= count; i++) {
    const jpeg = new Uint8Array(await noise(640, 427).jpeg({ quality: 85 }).toBuffer());
    const path = join(dir, `${prefix}${String(i).padStart(4, '0')}.jpg`);
    writeFileSync(path, i % 2 ? withExifPreview(jpeg, preview, { orientation: 1 }) : jpeg);
    paths.push(path);
  }
  return paths;
}

/**
 * JPEGs of about `megabytes` MB: noise at quality 100 without chroma subsampling costs about
 * 2.9 bytes a pixel, so a 3:2 frame of the right pixel count lands near the size asked.
 */
export async function largePhotos(dir: string, count: number, megabytes = 18, prefix = 'BIG_'): Promise<string[]> {
  const pixels = (megabytes * 1e6) / 2.92;
  const width = Math.round(Math.sqrt(pixels * 1.5));
  const height = Math.round(width / 1.5);
  const paths: string[] = [];
  for (let i = 1; i <= count; i++) {
    const path = join(dir, `${prefix}${String(i).padStart(4, '0')}.jpg`);
    writeFileSync(path, await noise(width, height).jpeg({ quality: 100, chromaSubsampling: '4:4:4' }).toBuffer());
    paths.push(path);
  }
  return paths;
}

/** Text that calls itself a photo. */
export function textNamedJpg(dir: string, name = 'notes.jpg'): string {
  const path = join(dir, name);
  writeFileSync(path, 'Notes for the lab: please print these on lustre, 8x10.\n');
  return path;
}

/**
 * A JPEG that every check of the upload passes (its magic bytes, header, end marker and checksum
 * are in order) and only a full decode finds damaged: restart markers where none belong, half-way
 * through its image data, as a failing card reader leaves them. The lab's derivatives job cannot
 * decode it (tests/api/photo-derivatives.test.ts) and marks it unreadable.
 */
export async function damagedJpeg(dir: string, name: string): Promise<string> {
  const jpeg = await noise(800, 600).jpeg({ quality: 85 }).toBuffer();
  const middle = Math.floor(jpeg.length / 2);
  for (let i = middle; i < middle + 4000; i += 2) jpeg.set([0xff, 0xd3], i);
  const path = join(dir, name);
  writeFileSync(path, jpeg);
  return path;
}
