import fc from 'fast-check';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIF_HEAD_BYTES, findExifThumbnail } from '../../../src/upload/shared/exif-thumbnail.ts';
import { readPixelSize } from '../../../src/domain/photo-content.ts';
import { exifApp1, previewOffsetIn, withExifPreview } from '../fixtures/exif-jpeg.ts';

let photo: Uint8Array;
let preview: Uint8Array;

beforeAll(async () => {
  const noise = (w: number, h: number) => sharp(Buffer.from(Array.from({ length: w * h * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width: w, height: h, channels: 3 } });
  photo = new Uint8Array(await noise(640, 480).jpeg({ quality: 90 }).toBuffer());
  preview = new Uint8Array(await noise(160, 120).jpeg({ quality: 70 }).toBuffer());
});

describe('findExifThumbnail', () => {
  it.each([true, false])('finds the IFD1 preview (little-endian: %s) and its bytes are the preview JPEG', async (littleEndian) => {
    const file = withExifPreview(photo, preview, { littleEndian });
    const found = findExifThumbnail(file.subarray(0, EXIF_HEAD_BYTES));
    expect(found).toEqual({ offset: previewOffsetIn(), length: preview.length, orientation: 1 });
    const bytes = file.subarray(found!.offset, found!.offset + found!.length);
    expect(Buffer.from(bytes).equals(Buffer.from(preview))).toBe(true);
    // What a browser will decode: a real 160×120 JPEG.
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 160, height: 120 });
    // The photo itself is still a valid JPEG of its own size.
    expect(await sharp(file).metadata()).toMatchObject({ width: 640, height: 480 });
  });

  it('reads the orientation of the photo from IFD0', () => {
    const file = withExifPreview(photo, preview, { orientation: 6, littleEndian: false });
    expect(findExifThumbnail(file)).toMatchObject({ offset: previewOffsetIn({ orientation: 6 }), orientation: 6 });
  });

  it('ignores an orientation outside 1..8', () => {
    expect(findExifThumbnail(withExifPreview(photo, preview, { orientation: 42 }))?.orientation).toBe(1);
  });

  it('skips other APP1 segments (XMP) before the EXIF one', () => {
    const xmpText = new TextEncoder().encode('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>');
    const xmp = new Uint8Array([0xff, 0xe1, 0, xmpText.length + 2, ...xmpText]);
    const app1 = exifApp1(preview);
    const file = new Uint8Array([0xff, 0xd8, ...xmp, ...app1, ...photo.subarray(2)]);
    const found = findExifThumbnail(file);
    expect(found?.offset).toBe(xmp.length + previewOffsetIn());
  });

  it('answers null for a JPEG without EXIF, a PNG, text, and a preview cut off by the head', async () => {
    expect(findExifThumbnail(photo)).toBeNull();
    const png = new Uint8Array(await sharp({ create: { width: 4, height: 4, channels: 3, background: '#888' } }).png().toBuffer());
    expect(findExifThumbnail(png)).toBeNull();
    expect(findExifThumbnail(new TextEncoder().encode('notes, not a photo'))).toBeNull();
    // The head stops inside the IFDs: no guess.
    expect(findExifThumbnail(withExifPreview(photo, preview).subarray(0, 30))).toBeNull();
  });

  it('refuses a preview that points outside its segment or at something not a JPEG', () => {
    const file = withExifPreview(photo, preview);
    const broken = file.slice();
    // Corrupt the preview's SOI.
    broken[previewOffsetIn()] = 0x00;
    expect(findExifThumbnail(broken)).toBeNull();
    // Make the length reach past the APP1 segment (IFD1's 0x0202 value, little-endian).
    const longer = file.slice();
    const lengthAt = 2 + 10 + 8 + 6 + 2 + 24 + 8;
    new DataView(longer.buffer).setUint32(lengthAt, preview.length + 100_000, true);
    expect(findExifThumbnail(longer)).toBeNull();
  });

  it('never throws, whatever the bytes, and never points past the segment it came from', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.boolean(), (bytes, asJpeg) => {
        const head = asJpeg ? new Uint8Array([0xff, 0xd8, 0xff, 0xe1, ...bytes]) : bytes;
        const found = findExifThumbnail(head);
        readPixelSize(head);
        // An APP1 segment is at most 64 KB and starts within the bytes read.
        return found === null || found.offset + found.length <= head.length + 0xffff;
      }),
    );
    expect(findExifThumbnail(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff]))).toBeNull();
  });
});
