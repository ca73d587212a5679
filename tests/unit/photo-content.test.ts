import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_PHOTO_BYTES, notAPhotoReason, readPixelSize, sizeRejection, sniffPhotoType } from '../../src/domain/photo-content.ts';
import { withExifPreview } from './fixtures/exif-jpeg.ts';

const image = (format: 'jpeg' | 'png' | 'webp', width = 30, height = 20) =>
  sharp({ create: { width, height, channels: 3, background: '#446688' } })
    .toFormat(format)
    .toBuffer()
    .then((b) => new Uint8Array(b));

describe('sniffPhotoType: photos by their bytes, not their names', () => {
  it('knows JPEG and PNG', async () => {
    expect(sniffPhotoType(await image('jpeg'))).toBe('image/jpeg');
    expect(sniffPhotoType(await image('png'))).toBe('image/png');
  });

  it('refuses anything else, and too few bytes', async () => {
    expect(sniffPhotoType(await image('webp'))).toBeNull();
    expect(sniffPhotoType(new TextEncoder().encode('Notes for the lab: print these on matte.'))).toBeNull();
    expect(sniffPhotoType(new Uint8Array([0xff, 0xd8]))).toBeNull();
    expect(sniffPhotoType(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(sniffPhotoType(new Uint8Array())).toBeNull();
  });

  it('words the rejection as the server does', () => {
    expect(notAPhotoReason('notes.jpg')).toBe('notes.jpg is not a JPEG or PNG photo.');
  });
});

describe('sizeRejection', () => {
  it('takes 1 byte to 200 MB, refuses empty and larger files', () => {
    expect(sizeRejection('a.jpg', 1)).toBeNull();
    expect(sizeRejection('a.jpg', MAX_PHOTO_BYTES)).toBeNull();
    expect(sizeRejection('a.jpg', MAX_PHOTO_BYTES + 1)).toBe('a.jpg is larger than 200 MB. Photos can be at most 200 MB each.');
    expect(sizeRejection('a.jpg', 0)).toBe('a.jpg is empty.');
  });
});

describe('readPixelSize', () => {
  it('reads JPEG frames and PNG headers', async () => {
    expect(readPixelSize(await image('jpeg', 321, 123))).toEqual({ width: 321, height: 123 });
    expect(readPixelSize(await image('png', 40, 900))).toEqual({ width: 40, height: 900 });
  });

  it('reads past an EXIF segment, and says null when the head stops before the frame', async () => {
    const jpeg = withExifPreview(await image('jpeg', 600, 400), await image('jpeg', 16, 16));
    expect(readPixelSize(jpeg)).toEqual({ width: 600, height: 400 });
    expect(readPixelSize(jpeg.subarray(0, 200))).toBeNull();
  });
});
