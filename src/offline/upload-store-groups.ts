/**
 * How a chosen batch goes into IndexedDB (queueFiles in upload-store.ts): in groups, each group's
 * bytes in a transaction of their own before its rows, and the sweep of bytes a crash left
 * without a row.
 */
import type { LabDatabase } from './db.ts';

/**
 * Files stored per transaction. IndexedDB copies each File's bytes into its own store before the
 * transaction commits, and one transaction for a whole batch held back the first photo's check
 * until every byte of the batch was copied (200 photos of 20 MB: 4 GB, 10-15 s before anything
 * was sent, while Uppy starts at once; README Performance, the upload's fourth pass). Eight
 * photos (160 MB of 20 MB photos) land in a fraction of a second, and the queue starts on them.
 */
export const FILES_PER_STORE = 8;
/**
 * The first group is smaller: the queue's first check (two run at once, CHECKS_AT_ONCE in
 * upload-prepare.ts) waits for its photo's row, which commits with its group's copy, so the first
 * two photos are stored on their own (40 MB of 20 MB photos, not 160 MB) and sending starts sooner.
 */
export const FIRST_FILES_STORED = 2;

/** The groups a batch of `count` rows is stored in, as [from, to) ranges. */
export function storeGroups(count: number): [number, number][] {
  const groups: [number, number][] = [[0, Math.min(count, FIRST_FILES_STORED)]];
  for (let from = FIRST_FILES_STORED; from < count; from += FILES_PER_STORE) groups.push([from, Math.min(count, from + FILES_PER_STORE)]);
  return groups;
}

/**
 * A stored copy without its row is swept once it is this old: young enough ones may belong to a
 * batch being stored right now (in this tab or another), whose rows follow their bytes within
 * moments.
 */
export const ORPHAN_FILE_AFTER_MS = 10 * 60_000;

/**
 * Removes stored photo bytes whose queue row is gone: a crash between storing a group's bytes
 * and its rows, or between a photo leaving the queue and its bytes being deleted. Reads keys only.
 */
export async function dropOrphanFiles(db: LabDatabase, now: number): Promise<void> {
  await db.transaction('rw', [db.uploads, db.uploadFiles], async () => {
    const fileIds = (await db.uploadFiles.toCollection().primaryKeys()) as string[];
    if (!fileIds.length) return;
    const rows = new Set((await db.uploads.toCollection().primaryKeys()) as string[]);
    const candidates = fileIds.filter((id) => !rows.has(id));
    if (!candidates.length) return;
    const old = (await db.uploadFiles.bulkGet(candidates)).filter((f) => f && (f.storedAt ?? 0) < now - ORPHAN_FILE_AFTER_MS);
    await db.uploadFiles.bulkDelete(old.map((f) => f?.id ?? ''));
  });
}
