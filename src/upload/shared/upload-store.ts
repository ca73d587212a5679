/**
 * The upload queue in IndexedDB: choosing files (atomically, after the quota check), and every
 * change of a queued photo's state. Each function is one transaction, so a crash between two
 * steps leaves either the old state or the new one, never half of each.
 */
import { Dexie } from 'dexie';
import { sizeRejection } from '../../domain/photo-content.ts';
import type { Photo } from '../../api/lab-order-upload.ts';
import type { UploadState } from './upload-state.ts';
import type { LabDatabase, PhotoEntry, RejectionEntry, UploadEntry, UploadPart } from '../../offline/db.ts';
import { newId } from '../../client-rules/ids.ts';
import { checkRoom, type StorageLike } from './storage-room.ts';

export type QueueFilesResult =
  | { ok: true; queued: number; rejected: number; alreadyQueued: number }
  | { ok: false; message: string };

/** The key that tells an accidental second choice of the same file (Uppy's and tus's file identity). */
const fileIdentity = (f: { name: string; size: number; lastModified: number }) => `${f.name}\u0000${f.size}\u0000${f.lastModified}`;

/**
 * Files stored per transaction. IndexedDB copies each File's bytes into its own store before the
 * transaction commits, and one transaction for a whole batch held back the first photo's check
 * until every byte of the batch was copied (a large batch waited long before anything was sent,
 * while Uppy starts at once; docs/performance-notes.md §7). A group of eight lands quickly, and the
 * queue starts on it.
 */
export const FILES_PER_STORE = 8;
/**
 * The first photo is stored alone: the queue checks and sends it while the next group is copied,
 * so the link waits for one photo's copy, not eight (the first PUT's delay, issue 32).
 */
const FIRST_STORE = 1;

/**
 * Puts chosen files in the queue: each File itself (a disk-backed Blob) with its row, FILES_PER_STORE
 * at a time, each group in one transaction, calling `onStored` after each so the queue can start
 * on the first photos while the rest are stored. The batch is still kept whole or not at all:
 * the room for all of it is checked first, and if storing a later group fails, the groups already
 * stored are removed again. Files already waiting in this order are skipped (so choosing a batch
 * again after a crash half-way through storing it adds only what is missing); files that cannot
 * be photos by their size are listed as rejected at once.
 */
export async function queueFiles(
  db: LabDatabase,
  owner: string,
  orderGuid: string,
  files: readonly File[],
  storage?: StorageLike,
  onStored: () => void = () => {},
): Promise<QueueFilesResult> {
  const waiting = new Set((await db.uploads.where('[owner+orderGuid]').equals([owner, orderGuid]).toArray()).map(fileIdentity));
  const now = Date.now();
  const rows: UploadEntry[] = [];
  const blobs: { id: string; file: Blob }[] = [];
  const rejections: RejectionEntry[] = [];
  let alreadyQueued = 0;
  files.forEach((file, i) => {
    if (waiting.has(fileIdentity(file))) {
      alreadyQueued += 1;
      return;
    }
    waiting.add(fileIdentity(file));
    const id = newId();
    const tooBig = sizeRejection(file.name, file.size);
    if (tooBig) {
      rejections.push({ id, owner, orderGuid, name: file.name, size: file.size, reason: tooBig, createdAt: now });
      return;
    }
    rows.push({
      id,
      owner,
      orderGuid,
      createdAt: now,
      // Milliseconds × 1000 + position: later batches after earlier ones, each in the order chosen.
      seq: now * 1000 + i,
      name: file.name,
      size: file.size,
      type: file.type,
      lastModified: file.lastModified,
      state: 'queued',
      paused: 0,
      createKey: newId(),
    });
    blobs.push({ id, file });
  });

  const room = await checkRoom(
    rows.reduce((sum, r) => sum + r.size, 0),
    rows.length,
    storage,
  );
  if (!room.ok) return { ok: false, message: room.message };
  const tables = [db.uploads, db.uploadFiles, db.rejections];
  try {
    for (let from = 0; from === 0 || from < rows.length; ) {
      const to = from + (from === 0 ? FIRST_STORE : FILES_PER_STORE);
      await db.transaction('rw', tables, async () => {
        await db.uploadFiles.bulkAdd(blobs.slice(from, to));
        await db.uploads.bulkAdd(rows.slice(from, to));
        if (from === 0) await db.rejections.bulkAdd(rejections);
      });
      onStored();
      from = to;
    }
  } catch (err) {
    // Nothing of the batch stays: a file the queue took already finds its row gone and stops.
    await db.transaction('rw', tables, async () => {
      await db.uploadFiles.bulkDelete(blobs.map((b) => b.id));
      await db.uploads.bulkDelete(rows.map((r) => r.id));
      await db.rejections.bulkDelete(rejections.map((r) => r.id));
    });
    if (err instanceof Error && (err.name === 'QuotaExceededError' || (err as { inner?: Error }).inner?.name === 'QuotaExceededError')) {
      return { ok: false, message: room.fullMessage };
    }
    throw err;
  }
  return { ok: true, queued: rows.length, rejected: rejections.length, alreadyQueued };
}

/** The owner's rows in one state, in sending order ([owner+state+seq] index). */
const inState = (db: LabDatabase, owner: string, state: UploadState) =>
  db.uploads.where('[owner+state+seq]').between([owner, state, Dexie.minKey], [owner, state, Dexie.maxKey]);

/** The next photo waiting for its check, past those `taken` says are being checked already. */
export const nextToCheck = (db: LabDatabase, owner: string, taken: (id: string) => boolean = () => false) =>
  inState(db, owner, 'queued')
    .filter((r) => !taken(r.id))
    .first();

/**
 * Files that may be sent now, in the order they should go: those already started first (finish
 * what was started), then up to `limit` ready ones the caller does not `skip` (in flight, or
 * waiting out a backoff). Paused files never.
 */
export async function sendCandidates(db: LabDatabase, owner: string, limit: number, skip: (r: UploadEntry) => boolean): Promise<UploadEntry[]> {
  const started = (await Promise.all((['confirming', 'completing', 'uploading'] as const).map((s) => inState(db, owner, s).toArray()))).flat();
  const ready = await inState(db, owner, 'ready')
    .filter((r) => !r.paused && !skip(r))
    .limit(limit)
    .toArray();
  return [...started.filter((r) => !r.paused).sort((a, b) => a.seq - b.seq), ...ready];
}

const SENDING: readonly UploadState[] = ['queued', 'ready', 'uploading', 'completing', 'confirming'];

/** Bytes of the owner's photos still to send (failed ones aside), from index keys alone. */
export async function pendingBytes(db: LabDatabase, owner: string): Promise<number> {
  const keys = await Promise.all(
    SENDING.map((s) => db.uploads.where('[owner+state+size]').between([owner, s, Dexie.minKey], [owner, s, Dexie.maxKey]).keys()),
  );
  return keys.flat().reduce<number>((sum, key) => sum + (Array.isArray(key) ? Number(key[2]) : 0), 0);
}

/** Changes a queued photo and answers it as stored, in one transaction (a step's every state change). */
export function updateUpload(db: LabDatabase, id: string, changes: Partial<UploadEntry>): Promise<UploadEntry | undefined> {
  return db.transaction('rw', db.uploads, async () => {
    await db.uploads.update(id, changes);
    return db.uploads.get(id);
  });
}

/** Finished parts of the upload under way (parts of a forgotten upload do not count). */
export async function finishedParts(db: LabDatabase, entry: UploadEntry): Promise<UploadPart[]> {
  const parts = await db.uploadParts.where('entryId').equals(entry.id).toArray();
  return parts.filter((p) => p.uploadId === entry.uploadId);
}

export const recordPart = (db: LabDatabase, part: UploadPart) => db.uploadParts.put(part);

/**
 * Whether the order already has a photo of exactly this many bytes on this device: likely the
 * same photo chosen again, whose checksum is then worth waiting for before asking to send it.
 */
export const orderHasPhotoOfSize = async (db: LabDatabase, orderGuid: string, size: number): Promise<boolean> =>
  (await db.photos
    .where('orderGuid')
    .equals(orderGuid)
    .filter((p) => p.size === size)
    .first()) !== undefined;

const forget = async (db: LabDatabase, id: string) => {
  await db.uploads.delete(id);
  await db.uploadFiles.delete(id);
  await db.uploadThumbnails.delete(id);
  await db.uploadParts.where('entryId').equals(id).delete();
};

/** The pixel size and preview the builder needs (crop, resolution check), when the server knows them. */
function withPixels(row: PhotoEntry, photo: Pick<Photo, 'width' | 'height' | 'photo_url' | 'derivatives_ready'> & { unreadable_reason?: string | null }): void {
  if (photo.width && photo.height) {
    row.width = photo.width;
    row.height = photo.height;
  }
  if (photo.derivatives_ready) row.previewUrl = photo.photo_url;
  if (photo.unreadable_reason) row.unreadableReason = photo.unreadable_reason;
}

const ALL_TABLES = (db: LabDatabase) => [db.uploads, db.uploadFiles, db.uploadThumbnails, db.uploadParts, db.photos, db.rejections];

/** The photo is in the order: it joins the photos table with its thumbnail and leaves the queue. */
export async function finishUpload(db: LabDatabase, entry: UploadEntry, photo: Photo): Promise<void> {
  await db.transaction('rw', ALL_TABLES(db), async () => {
    const thumbnail = (await db.uploadThumbnails.get(entry.id))?.blob;
    const known = await db.photos.get(photo.guid);
    const row: PhotoEntry = {
      id: photo.guid,
      owner: entry.owner,
      orderGuid: entry.orderGuid,
      name: photo.photo_file_name,
      size: photo.size,
      checksum: photo.checksum,
      createdAt: known?.createdAt ?? Date.now(),
    };
    const keptThumbnail = thumbnail ?? known?.thumbnail;
    if (keptThumbnail) row.thumbnail = keptThumbnail;
    withPixels(row, { ...photo, width: photo.width ?? entry.width ?? null, height: photo.height ?? entry.height ?? null });
    await db.photos.put(row);
    await forget(db, entry.id);
  });
}

/** The file will not be uploaded: listed as REJECTED with the reason, its bytes dropped. */
export async function rejectUpload(db: LabDatabase, entry: UploadEntry, reason: string): Promise<void> {
  await db.transaction('rw', ALL_TABLES(db), async () => {
    await db.rejections.put({ id: entry.id, owner: entry.owner, orderGuid: entry.orderGuid, name: entry.name, size: entry.size, reason, createdAt: Date.now() });
    await forget(db, entry.id);
  });
}

/** The user removes a queued photo: gone from the queue, bytes and all. */
export async function removeUpload(db: LabDatabase, id: string): Promise<void> {
  await db.transaction('rw', ALL_TABLES(db), () => forget(db, id));
}

export async function failUpload(db: LabDatabase, entry: UploadEntry, message: string): Promise<void> {
  await db.uploads.update(entry.id, { state: 'failed', failedFrom: entry.state === 'failed' ? entry.failedFrom ?? 'queued' : entry.state, error: message });
}

/** Back to where it failed; a file never checked starts from the check. */
export async function retryUpload(db: LabDatabase, id: string): Promise<void> {
  await db.transaction('rw', db.uploads, async () => {
    const entry = await db.uploads.get(id);
    if (!entry || entry.state !== 'failed') return;
    const from: UploadState = entry.failedFrom ?? 'queued';
    await db.uploads.update(id, { state: from, paused: 0, error: undefined, failedFrom: undefined });
  });
}

/**
 * Starts the file's upload again from a fresh create_presigned_url (the server forgot the
 * multipart upload, or a single URL expired): new idempotency key, old parts dropped.
 */
export async function restartUpload(db: LabDatabase, entry: UploadEntry): Promise<UploadEntry | undefined> {
  await db.transaction('rw', [db.uploads, db.uploadParts], async () => {
    await db.uploadParts.where('entryId').equals(entry.id).delete();
    await db.uploads.update(entry.id, { state: 'ready', createKey: newId(), key: undefined, single: undefined, uploadId: undefined, partSize: undefined, completeKey: undefined, confirmKey: undefined });
  });
  return db.uploads.get(entry.id);
}

/** Pause or resume; a failed photo is not paused (it waits for RETRY, which also resumes it). */
export async function setPaused(db: LabDatabase, ids: readonly string[], pause: boolean): Promise<void> {
  await db.uploads
    .where('id')
    .anyOf([...ids])
    .filter((u) => !pause || u.state !== 'failed')
    .modify({ paused: pause ? 1 : 0 });
}

export const dismissRejections = (db: LabDatabase, owner: string, orderGuid: string) => db.rejections.where('[owner+orderGuid]').equals([owner, orderGuid]).delete();

/**
 * Photos the server lists for an order, merged into the photos table: a thumbnail this device
 * made is kept; the server's thumbnail address is used once its derivatives job made it (before
 * that smallest_photo points at the original, far too big for a grid).
 */
export async function keepServerPhotos(db: LabDatabase, owner: string, orderGuid: string, photos: readonly Photo[]): Promise<void> {
  await db.transaction('rw', db.photos, async () => {
    const known = new Map((await db.photos.bulkGet(photos.map((p) => p.guid))).filter((p) => p !== undefined).map((p) => [p.id, p]));
    const rows = photos.map((p) => {
      const before = known.get(p.guid);
      const row: PhotoEntry = { id: p.guid, owner, orderGuid, name: p.photo_file_name, size: p.size, checksum: p.checksum, createdAt: before?.createdAt ?? Date.parse(p.created_at) };
      if (before?.thumbnail) row.thumbnail = before.thumbnail;
      if (p.derivatives_ready) row.smallestPhotoUrl = p.smallest_photo;
      withPixels(row, p);
      return row;
    });
    // Only rows that changed are written: the upload screen asks again every few seconds while
    // the lab makes previews, and each write wakes the screens' live queries of the table.
    const changed = rows.filter((row) => {
      const before = known.get(row.id);
      return !before || (Object.keys(row) as (keyof PhotoEntry)[]).some((k) => row[k] !== before[k]) || Object.keys(before).length !== Object.keys(row).length;
    });
    if (changed.length) await db.photos.bulkPut(changed);
  });
}
