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
    // Opened at the newest version (3, issue 11), through version 2's upgrade.
    expect(db.verno).toBe(3);
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
