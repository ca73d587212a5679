import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.ts';
import { SHARED_OWNER, clearUserData, keepRead, readThrough } from '../../src/offline/cached-read.ts';
import { LabDatabase } from '../../src/offline/db.ts';

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
    await db.uploads.add({ id: 'u1', owner: 'ann@example.com', orderGuid: 'g', createdAt: 1, seq: 1, name: 'a.jpg', size: 1, type: 'image/jpeg', lastModified: 1, state: 'queued', paused: 0, createKey: 'k' });
    await clearUserData(db);
    expect((await db.cachedReads.toArray()).map((r) => r.key)).toEqual([`${SHARED_OWNER}|calculator_catalogue`]);
    expect(await db.outbox.count()).toBe(1);
    expect(await db.uploads.count()).toBe(1);
  });
});
