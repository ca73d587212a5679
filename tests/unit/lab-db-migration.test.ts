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
    // The kept list (nothing readable in it) is left as the list's mark of when it last answered.
    expect(await db.cachedReads.get('ann|lab_orders')).toEqual({ key: 'ann|lab_orders', owner: 'ann', savedAt: 1, payload: null });
    expect(await db.orders.count()).toBe(0);
    expect(await db.outbox.toArray()).toEqual([{ id: 'c1', owner: 'ann', createdAt: 2, name: 'lineItem.add', payload: { q: 1 } }]);
    const upload = await db.uploads.get('u1');
    expect(upload).toMatchObject({ id: 'u1', owner: 'ann', orderGuid: 'o1', seq: 3, paused: 0, state: 'failed', failedFrom: 'queued' });
    expect(upload?.error).toMatch(/without its file/);
    // Still counted by the sync indicator (owner index unchanged).
    expect(await db.uploads.where('owner').equals('ann').count()).toBe(1);
    // Opened at the newest version (5: the orders list's index), through version 2's upgrade.
    expect(db.verno).toBe(5);
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
    const { orderPhotos, orderQueue } = await import('../../src/upload/page/order-photos.ts');
    expect((await orderQueue('ann', 'o1', 10, db)).map((u) => u.id)).toEqual(['u1', 'u2']);
    expect((await orderPhotos('ann', 'o1', 10, db)).map((p) => p.id)).toEqual(['p1', 'p2']);
    expect(await db.uploads.get('u1')).toEqual(queued('u1', 'ann', 1));
    expect(await db.uploadParts.where('entryId').equals('u1').count()).toBe(1);
    expect(new Uint8Array(await (await db.uploadFiles.get('u1'))!.file.arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 0xff]));
    expect(await db.outbox.toArray()).toEqual([{ id: 'c1', owner: 'ann', createdAt: 2, seq: 1, name: 'lineItem.add', payload: { q: 1 } }]);
    expect(db.verno).toBe(5);
    db.close();
  });
});

describe('print-lab database version 5', () => {
  it("turns the kept pages of the orders list into listed order rows, keeping the builder's figures and every other row", async () => {
    const v4 = new Dexie(NAME);
    v4.version(4).stores({
      cachedReads: 'key, owner',
      outbox: 'id, owner, createdAt, seq',
      orders: 'guid, owner',
      lineItems: 'guid, owner, orderGuid, [owner+orderGuid]',
    });
    await v4.open();
    const listed = (i: number, o: Record<string, unknown> = {}) => ({
      id: 100 + i,
      guid: `g${i}`,
      order_name: `Order ${i}`,
      status: 'paid',
      created_at: '2026-11-01T10:00:00.000Z',
      updated_at: `2026-11-0${i}T10:00:00.000Z`,
      paid_at: null,
      photographer_id: 'p1',
      photographer_name: 'Ann Lee',
      photographer_business: '',
      photographer_email: 'ann@example.com',
      ...o,
    });
    const page = { data: [listed(3), listed(2, { paid_at: '2026-11-05T08:00:00.000Z' }), { attributes: { guid: 'broken' } }].map((a) => ('id' in a ? { id: String(a.id), type: 'lab_order', attributes: a } : a)), meta: { total: 3 } };
    await v4.table('cachedReads').bulkPut([
      { key: 'ann@example.com|lab_orders', owner: 'ann@example.com', savedAt: 7, payload: page },
      { key: 'lab|calculator_catalogue', owner: 'lab', savedAt: 1, payload: { papers: [] } },
    ]);
    const builder = { guid: 'g3', owner: 'ann@example.com', name: 'Order 3', status: 'open', subtotalCents: 500, discountCents: 0, creditCents: 0, boutiqueCents: 0, shippingCents: 0, totalCents: 500, notes: null };
    await v4.table('orders').bulkPut([builder, { ...builder, guid: 'bobs', owner: 'bob@example.com' }]);
    await v4.table('outbox').put({ id: 'c1', owner: 'ann@example.com', createdAt: 2, seq: 1, name: 'lineItem.add', payload: {} });
    v4.close();

    const db = new LabDatabase(NAME);
    const { readListed, listSyncedAt } = await import('../../src/offline/order-list-store.ts');
    // Newest first by paid date, else updated date; the unreadable entry is left out.
    expect((await readListed(db, 'ann@example.com', null)).map((a) => a.guid)).toEqual(['g2', 'g3']);
    expect(await db.orders.get('g3')).toMatchObject({ ...builder, listAt: Date.parse('2026-11-03T10:00:00.000Z'), listId: 103 });
    expect(await db.orders.get('bobs')).toEqual({ ...builder, guid: 'bobs', owner: 'bob@example.com' });
    expect(await listSyncedAt(db, 'ann@example.com')).toBe(7);
    expect(await db.cachedReads.get('lab|calculator_catalogue')).toMatchObject({ payload: { papers: [] } });
    expect(await db.outbox.count()).toBe(1);
    expect(db.verno).toBe(5);
    db.close();
  });
});
