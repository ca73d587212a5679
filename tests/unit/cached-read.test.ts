import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.ts';
import { SHARED_OWNER, keepRead, readThrough } from '../../src/offline/cached-read.ts';
import { clearUserData } from '../../src/offline/clear-user-data.ts';
import { LabDatabase, type UploadEntry } from '../../src/offline/db.ts';
import { orderQueue, orderUploadCounts } from '../../src/upload/page/order-photos.ts';
import { resumeQueuedUploads } from '../../src/upload/page/upload-autostart.ts';

let n = 0;
const dbs: LabDatabase[] = [];
const freshDb = () => {
  const db = new LabDatabase(`test-${++n}`);
  dbs.push(db);
  return db;
};
afterEach(async () => {
  await Promise.all(dbs.splice(0).map((db) => db.delete()));
});

/** Ann's photo, checked and waiting to be sent to order g. */
const queuedUpload = (id: string): UploadEntry => ({
  id,
  owner: 'ann@example.com',
  orderGuid: 'g',
  createdAt: 1,
  seq: 1,
  name: `${id}.jpg`,
  size: 4,
  type: 'image/jpeg',
  lastModified: 1,
  state: 'ready',
  paused: 0,
  createKey: `k-${id}`,
});

const offline = () => Promise.reject(new ApiError('network', 'Failed to fetch'));

describe('readThrough', () => {
  it('offline, returns what was kept last: a list with its further pages', async () => {
    const db = freshDb();
    await readThrough('ann@example.com', 'lab_orders', async () => ({ data: [1] }), db);
    await keepRead('ann@example.com', 'lab_orders', { data: [1, 2, 3] }, db);
    expect((await readThrough('ann@example.com', 'lab_orders', offline, db)).data).toEqual({ data: [1, 2, 3] });
  });

  it('keeps a live answer and returns it offline with the time it was fetched', async () => {
    const db = freshDb();
    const live = await readThrough('ann@example.com', 'lab_orders', async () => ({ data: [1, 2] }), db);
    expect(live).toEqual({ data: { data: [1, 2] }, cachedAt: null });
    const kept = await readThrough('ann@example.com', 'lab_orders', offline, db);
    expect(kept.data).toEqual({ data: [1, 2] });
    expect(kept.cachedAt).toBeTypeOf('number');
  });

  it("never shows one user's copy to another", async () => {
    const db = freshDb();
    await readThrough('ann@example.com', 'lab_orders', async () => ['ann'], db);
    await expect(readThrough('bob@example.com', 'lab_orders', offline, db)).rejects.toMatchObject({ kind: 'network' });
  });

  it('does not hide failures other than a missing connection', async () => {
    const db = freshDb();
    await readThrough('ann@example.com', 'lab_orders', async () => ['x'], db);
    const serverError = new ApiError('server', 'boom', { status: 500 });
    await expect(readThrough('ann@example.com', 'lab_orders', () => Promise.reject(serverError), db)).rejects.toBe(serverError);
  });

  it("clearUserData forgets users' kept reads but keeps the lab's catalogue, unsent changes and uploads", async () => {
    const db = freshDb();
    await readThrough('ann@example.com', 'lab_orders', async () => ['x'], db);
    await readThrough(SHARED_OWNER, 'calculator_catalogue', async () => ['papers'], db);
    await db.outbox.add({ id: 'o1', owner: 'ann@example.com', createdAt: 1, name: 'updateQuantity', payload: {} });
    await db.uploads.add(queuedUpload('u1'));
    await clearUserData(db);
    expect((await db.cachedReads.toArray()).map((r) => r.key)).toEqual([`${SHARED_OWNER}|calculator_catalogue`]);
    expect(await db.outbox.count()).toBe(1);
    expect(await db.uploads.count()).toBe(1);
  });

  it('at sign-out, queued photos stay whole for their owner (file, finished parts, thumbnail); photos in orders, their thumbnails and REJECTED lists go', async () => {
    const db = freshDb();
    const blob = new Blob(['jpeg'], { type: 'image/jpeg' });
    await db.uploads.bulkAdd([queuedUpload('u1'), { ...queuedUpload('u2'), state: 'failed', failedFrom: 'uploading', error: 'The lab is busy.' }]);
    await db.uploadFiles.bulkAdd([{ id: 'u1', file: blob }, { id: 'u2', file: blob }]);
    await db.uploadParts.add({ entryId: 'u1', partNumber: 1, etag: '"e1"', uploadId: 'up-1', size: 8 });
    await db.uploadThumbnails.bulkAdd([
      { id: 'u1', blob, source: 'exif' },
      // Left by a photo that finished as the session ended.
      { id: 'gone', blob, source: 'decoded' },
    ]);
    await db.photos.add({ id: 'p1', owner: 'ann@example.com', orderGuid: 'g', name: 'done.jpg', size: 4, checksum: null, createdAt: 1, thumbnail: blob });
    await db.rejections.add({ id: 'r1', owner: 'ann@example.com', orderGuid: 'g', name: 'notes.jpg', size: 9, reason: 'notes.jpg is not a JPEG or PNG photo.', createdAt: 1 });

    await clearUserData(db);

    expect((await db.uploads.toArray()).map((u) => [u.id, u.state])).toEqual([
      ['u1', 'ready'],
      ['u2', 'failed'],
    ]);
    expect(await db.uploadFiles.count()).toBe(2);
    expect(await db.uploadParts.count()).toBe(1);
    expect((await db.uploadThumbnails.toArray()).map((t) => t.id)).toEqual(['u1']);
    expect(await db.photos.count()).toBe(0);
    expect(await db.rejections.count()).toBe(0);

    // Another photographer signing in on this device sees none of it, and sends none of it.
    expect(await orderUploadCounts('bob@example.com', 'g', db)).toMatchObject({ pending: 0, accepted: 0, rejected: 0 });
    expect(await orderQueue('bob@example.com', 'g', 50, db)).toEqual([]);
    expect(await resumeQueuedUploads('bob@example.com', db)).toBe(false);
    // Ann, back, finds her photos where she left them.
    expect(await orderUploadCounts('ann@example.com', 'g', db)).toMatchObject({ pending: 2, failed: 1, active: 1 });
  });
});
