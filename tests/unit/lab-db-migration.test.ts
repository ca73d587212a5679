import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { LabDatabase } from '../../src/offline/db.ts';

const NAME = 'print-lab-migration-test';

afterEach(async () => {
  await Dexie.delete(NAME);
});

describe('print-lab database version 2', () => {
  it('keeps every version 1 row: kept reads, unsent changes, and upload rows (made retryable)', async () => {
    const v1 = new Dexie(NAME);
    v1.version(1).stores({ cachedReads: 'key, owner', outbox: 'id, owner, createdAt', uploads: 'id, owner, orderGuid, createdAt' });
    await v1.open();
    await v1.table('cachedReads').put({ key: 'ann|lab_orders', owner: 'ann', savedAt: 1, payload: { data: [1] } });
    await v1.table('outbox').put({ id: 'c1', owner: 'ann', createdAt: 2, name: 'lineItem.add', payload: { q: 1 } });
    await v1.table('uploads').put({ id: 'u1', owner: 'ann', orderGuid: 'o1', createdAt: 3, state: 'queued' });
    v1.close();

    const db = new LabDatabase(NAME);
    expect(await db.cachedReads.get('ann|lab_orders')).toEqual({ key: 'ann|lab_orders', owner: 'ann', savedAt: 1, payload: { data: [1] } });
    expect(await db.outbox.toArray()).toEqual([{ id: 'c1', owner: 'ann', createdAt: 2, name: 'lineItem.add', payload: { q: 1 } }]);
    const upload = await db.uploads.get('u1');
    expect(upload).toMatchObject({ id: 'u1', owner: 'ann', orderGuid: 'o1', seq: 3, paused: 0, state: 'failed', failedFrom: 'queued' });
    expect(upload?.error).toMatch(/without its file/);
    // Still counted by the sync indicator (owner index unchanged).
    expect(await db.uploads.where('owner').equals('ann').count()).toBe(1);
    // Opened at the newest version (4: the upload screen's indexes), through version 2's upgrade.
    expect(db.verno).toBe(4);
    db.close();
  });

  it('stores a chosen file with its queue row, and parts by upload and number', async () => {
    const db = new LabDatabase(NAME);
    await db.uploadFiles.put({ id: 'u2', file: new Blob([new Uint8Array([0xff, 0xd8, 0xff, 1, 2])], { type: 'image/jpeg' }) });
    await db.uploadParts.bulkPut([
      { entryId: 'u2', partNumber: 2, etag: '"b"', uploadId: 'up', size: 5 },
      { entryId: 'u2', partNumber: 1, etag: '"a"', uploadId: 'up', size: 5 },
      { entryId: 'u3', partNumber: 1, etag: '"c"', uploadId: 'up3', size: 5 },
    ]);
    const file = await db.uploadFiles.get('u2');
    expect(new Uint8Array(await file!.file.arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 1, 2]));
    expect((await db.uploadParts.where('entryId').equals('u2').sortBy('partNumber')).map((p) => p.etag)).toEqual(['"a"', '"b"']);
    db.close();
  });
});

describe('print-lab database version 4', () => {
  it('adds the upload screen indexes and keeps every version 3 row: queued uploads with their files and parts, unsent changes, photos', async () => {
    const v3 = new Dexie(NAME);
    v3.version(3).stores({
      cachedReads: 'key, owner',
      outbox: 'id, owner, createdAt, seq',
      uploads: 'id, owner, [orderGuid+seq], [owner+orderGuid], [owner+orderGuid+state], [owner+orderGuid+paused], [owner+state+seq], [owner+state+size]',
      uploadFiles: 'id',
      uploadParts: '[entryId+partNumber], entryId',
      uploadThumbnails: 'id',
      photos: 'id, owner, orderGuid, [orderGuid+checksum], [orderGuid+createdAt], [owner+orderGuid]',
      rejections: 'id, owner, orderGuid, createdAt, [owner+orderGuid]',
      orders: 'guid, owner',
      lineItems: 'guid, owner, orderGuid, [owner+orderGuid]',
      syncCredentials: 'owner',
    });
    await v3.open();
    const queued = (id: string, owner: string, seq: number) => ({ id, owner, orderGuid: 'o1', createdAt: 1, seq, name: `${id}.jpg`, size: 10, type: 'image/jpeg', lastModified: 1, state: 'uploading', paused: 0, createKey: 'k', uploadId: 'up' });
    await v3.table('uploads').bulkPut([queued('u2', 'ann', 2), queued('u1', 'ann', 1), queued('b1', 'bob', 0)]);
    await v3.table('uploadFiles').put({ id: 'u1', file: new Blob([new Uint8Array([0xff, 0xd8, 0xff])]) });
    await v3.table('uploadParts').put({ entryId: 'u1', partNumber: 1, etag: '"a"', uploadId: 'up', size: 5 });
    await v3.table('outbox').put({ id: 'c1', owner: 'ann', createdAt: 2, seq: 1, name: 'lineItem.add', payload: { q: 1 } });
    const photo = (id: string, owner: string, createdAt: number) => ({ id, owner, orderGuid: 'o1', name: `${id}.jpg`, size: 1, checksum: id, createdAt });
    await v3.table('photos').bulkPut([photo('p1', 'ann', 1), photo('p2', 'ann', 2), photo('x1', 'bob', 3)]);
    v3.close();

    const db = new LabDatabase(NAME);
    const { orderPhotos, orderQueue } = await import('../../src/offline/order-photos.ts');
    expect((await orderQueue('ann', 'o1', 10, db)).map((u) => u.id)).toEqual(['u1', 'u2']);
    expect((await orderPhotos('ann', 'o1', 10, db)).map((p) => p.id)).toEqual(['p2', 'p1']);
    expect(await db.uploads.get('u1')).toEqual(queued('u1', 'ann', 1));
    expect(await db.uploadParts.where('entryId').equals('u1').count()).toBe(1);
    expect(new Uint8Array(await (await db.uploadFiles.get('u1'))!.file.arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 0xff]));
    expect(await db.outbox.toArray()).toEqual([{ id: 'c1', owner: 'ann', createdAt: 2, seq: 1, name: 'lineItem.add', payload: { q: 1 } }]);
    expect(db.verno).toBe(4);
    db.close();
  });
});
