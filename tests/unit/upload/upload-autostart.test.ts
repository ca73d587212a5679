import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { LabDatabase, type UploadEntry } from '../../../src/offline/db.ts';
import { resumeQueuedUploads } from '../../../src/upload/page/upload-autostart.ts';
import { useUploadProgress } from '../../../src/upload/page/upload-progress.ts';

const db = new LabDatabase('autostart-test');
afterEach(async () => {
  const { stopUploadQueue } = await import('../../../src/upload/page/uploads.ts');
  stopUploadQueue();
  await db.uploads.clear();
});

const row = (id: string, changes: Partial<UploadEntry>): UploadEntry => ({
  id,
  owner: 'ann@example.com',
  orderGuid: 'o1',
  createdAt: 1,
  seq: 1,
  name: `${id}.jpg`,
  size: 10,
  type: 'image/jpeg',
  lastModified: 1,
  state: 'ready',
  paused: 0,
  createKey: id,
  ...changes,
});

describe('resuming queued uploads when the signed-in app opens', () => {
  it('does nothing (and loads no queue) when nothing waits, or only failed and paused photos', async () => {
    expect(await resumeQueuedUploads('', db)).toBe(false);
    expect(await resumeQueuedUploads('ann@example.com', db)).toBe(false);
    await db.uploads.bulkPut([row('a', { state: 'failed' }), row('b', { paused: 1 }), row('c', { owner: 'bob@example.com' })]);
    expect(await resumeQueuedUploads('ann@example.com', db)).toBe(false);
    expect(useUploadProgress.getState().running).toBe(false);
  });

  it("starts the owner's queue when a photo waits", async () => {
    await db.uploads.put(row('d', {}));
    expect(await resumeQueuedUploads('ann@example.com', db)).toBe(true);
    expect(useUploadProgress.getState().running).toBe(true);
  });
});
