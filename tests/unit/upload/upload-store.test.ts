import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { LabDatabase, type UploadEntry } from '../../../src/offline/db.ts';
import { orderUploadCounts } from '../../../src/upload/page/order-photos.ts';
import { nextToCheck, pendingBytes, sendCandidates, setPaused } from '../../../src/upload/shared/upload-store.ts';

const db = new LabDatabase('upload-store-test');
afterEach(() => db.uploads.clear());

const ANN = 'ann@example.com';
let seq = 0;
const row = (id: string, changes: Partial<UploadEntry> = {}): UploadEntry => ({
  id,
  owner: ANN,
  orderGuid: 'o1',
  createdAt: 1,
  seq: ++seq,
  name: `${id}.jpg`,
  size: 100,
  type: 'image/jpeg',
  lastModified: 1,
  state: 'ready',
  paused: 0,
  createKey: id,
  ...changes,
});

describe('the queue in IndexedDB', () => {
  it('offers started files first, then ready ones in the order chosen, never paused ones', async () => {
    await db.uploads.bulkPut([
      row('r1'),
      row('q1', { state: 'queued' }),
      row('u1', { state: 'uploading' }),
      row('r2', { paused: 1 }),
      row('c1', { state: 'confirming' }),
      row('r3'),
      row('f1', { state: 'failed' }),
      row('x1', { owner: 'bob@example.com' }),
    ]);
    expect((await sendCandidates(db, ANN, 10, () => false)).map((r) => r.id)).toEqual(['u1', 'c1', 'r1', 'r3']);
    // Skipped ones (in flight, backing off) do not use up the limit.
    expect((await sendCandidates(db, ANN, 1, (r) => r.id === 'r1')).map((r) => r.id)).toEqual(['u1', 'c1', 'r3']);
    expect((await nextToCheck(db, ANN))?.id).toBe('q1');
  });

  it('sums the bytes still to send without failed photos, and counts an order by state', async () => {
    await db.uploads.bulkPut([row('a', { size: 10 }), row('b', { size: 20, state: 'uploading' }), row('c', { size: 40, state: 'failed' }), row('d', { size: 80, state: 'queued', orderGuid: 'o2' })]);
    expect(await pendingBytes(db, ANN)).toBe(110);
    await setPaused(db, ['a', 'c'], true);
    // A failed photo is not paused: RETRY resumes it.
    expect((await db.uploads.bulkGet(['a', 'c'])).map((r) => r?.paused)).toEqual([1, 0]);
    expect(await orderUploadCounts(ANN, 'o1', db)).toEqual({ accepted: 0, pending: 3, active: 1, processing: 0, failed: 1, paused: 1, rejected: 0 });
  });
});
