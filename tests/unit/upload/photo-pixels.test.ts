import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Photo } from '../../../src/api/lab-order-upload.ts';
import { LabDatabase } from '../../../src/offline/db.ts';
import { keepServerPhotos } from '../../../src/upload/shared/upload-store.ts';

const db = new LabDatabase('photo-pixels-test');

const photo = (changes: Partial<Photo>): Photo => ({
  guid: 'p1',
  photo_file_name: 'IMG_0001.jpg',
  photo_url: 'https://lab.example/preview/p1',
  presigned_photo_url: 'https://lab.example/original/p1',
  smallest_photo: 'https://lab.example/thumb/p1',
  width: 6000,
  height: 4000,
  size: 1000,
  checksum: null,
  content_type: 'image/jpeg',
  derivatives_ready: true,
  unreadable_reason: null,
  created_at: '2026-11-01T10:00:00Z',
  ...changes,
});

describe("the builder's facts about a photo on the device", () => {
  it('keeps the pixel size (for the resolution check) and the preview (for the cropper)', async () => {
    await keepServerPhotos(db, 'ann@example.com', 'o1', [photo({})]);
    expect(await db.photos.get('p1')).toMatchObject({ width: 6000, height: 4000, previewUrl: 'https://lab.example/preview/p1' });
  });

  it('has no preview while the lab is still making it, and no size the lab does not know', async () => {
    await keepServerPhotos(db, 'ann@example.com', 'o1', [photo({ guid: 'p2', derivatives_ready: false, width: null, height: null })]);
    const row = await db.photos.get('p2');
    expect(row?.previewUrl).toBeUndefined();
    expect(row?.width).toBeUndefined();
  });

  it('keeps why the lab cannot print a photo whose image data turned out damaged, for the upload screen to show', async () => {
    const reason = 'IMG_0042.jpg could not be read: its image data is damaged, so the lab cannot print it. Please export it again and upload it again.';
    await keepServerPhotos(db, 'ann@example.com', 'o1', [photo({ guid: 'p3', derivatives_ready: false, unreadable_reason: reason })]);
    expect((await db.photos.get('p3'))?.unreadableReason).toBe(reason);
    await keepServerPhotos(db, 'ann@example.com', 'o1', [photo({ guid: 'p4' })]);
    expect((await db.photos.get('p4'))?.unreadableReason).toBeUndefined();
  });
});
