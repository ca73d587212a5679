import { Dexie, type EntityTable, type Table } from 'dexie';
import type { PhotoContentType } from '../domain/photo-content.ts';
import type { UploadState } from '../domain/upload-state.ts';

/** The last answer of a signed-in list read, shown while offline. */
export interface CachedRead {
  /** `${owner}|${what}` */
  key: string;
  /** The email of the user the data belongs to. */
  owner: string;
  savedAt: number;
  payload: unknown;
}

/** A change made offline, waiting to be sent (the builder's outbox fills it). */
export interface OutboxEntry {
  id: string;
  owner: string;
  createdAt: number;
  name: string;
  payload: unknown;
}

/**
 * A photo chosen for upload and not yet in the order: its place in the queue, what the worker
 * found, and how far its upload got. No bytes here (they are in uploadFiles, written once), so
 * the queue's many small updates never rewrite a photo. The sync indicator counts these rows.
 */
export interface UploadEntry {
  id: string;
  owner: string;
  orderGuid: string;
  createdAt: number;
  /** The order of choosing: the queue sends files in this order. */
  seq: number;
  name: string;
  size: number;
  /** The browser's guess from the name; the worker's content check decides. */
  type: string;
  lastModified: number;
  state: UploadState;
  /**
   * Paused by the user (1): keeps its state and resumes from it. A number, not a boolean, because
   * IndexedDB indexes numbers and not booleans, and the screen counts paused photos by index.
   */
  paused: 0 | 1;
  /** Failed: where to go back to on retry, and the words for the user. */
  failedFrom?: UploadState;
  error?: string;
  contentType?: PhotoContentType;
  /** SHA-256 of the whole file, hex, from the worker. */
  checksum?: string;
  width?: number;
  height?: number;
  /** Idempotency keys of the steps, kept so a step repeated after a crash is a replay. */
  createKey: string;
  completeKey?: string;
  confirmKey?: string;
  /** The storage key the server chose. */
  key?: string;
  /** A single PUT's signed URL and headers. */
  single?: { signedUrl: string; headers: Record<string, string> };
  /** A multipart upload under way. */
  uploadId?: string;
  partSize?: number;
}

/** The chosen file itself (a disk-backed Blob), written once when chosen, deleted when done. */
export interface UploadFile {
  id: string;
  file: Blob;
}

/** One finished part of a multipart upload, written the moment storage answers with its ETag. */
export interface UploadPart {
  entryId: string;
  partNumber: number;
  etag: string;
  /** The multipart upload it belongs to: parts of a forgotten upload are not reused. */
  uploadId: string;
  size: number;
}

/** The worker's thumbnail of a queued photo, shown until the photo is in the order. */
export interface UploadThumbnail {
  id: string;
  blob: Blob;
  source: 'exif' | 'decoded';
}

/** A photo in an order, with the thumbnail this device made or the server's address of one. */
export interface PhotoEntry {
  /** The server's photo guid. */
  id: string;
  owner: string;
  orderGuid: string;
  name: string;
  size: number;
  checksum: string | null;
  createdAt: number;
  thumbnail?: Blob;
  smallestPhotoUrl?: string;
}

/** A chosen file that will not be uploaded, and why (listed as REJECTED until dismissed). */
export interface RejectionEntry {
  id: string;
  owner: string;
  orderGuid: string;
  name: string;
  size: number;
  reason: string;
  createdAt: number;
}

/**
 * The app's IndexedDB. It survives reloads and app updates: unsynced changes and queued uploads
 * must never be lost to a new version.
 */
export class LabDatabase extends Dexie {
  cachedReads!: EntityTable<CachedRead, 'key'>;
  outbox!: EntityTable<OutboxEntry, 'id'>;
  uploads!: EntityTable<UploadEntry, 'id'>;
  uploadFiles!: EntityTable<UploadFile, 'id'>;
  uploadParts!: Table<UploadPart, [string, number]>;
  uploadThumbnails!: EntityTable<UploadThumbnail, 'id'>;
  photos!: EntityTable<PhotoEntry, 'id'>;
  rejections!: EntityTable<RejectionEntry, 'id'>;

  constructor(name = 'print-lab') {
    // No shared live-query cache: Dexie 4's default deep-clones every live result on read and
    // applies each write to the cached results inside the write's own callback, which during a
    // 200-photo upload (a write per part and per state) made main-thread tasks of 70-226 ms in
    // IndexedDB callbacks (README Performance). Each live query re-reads after a commit instead.
    super(name, { cache: 'disabled' });
    this.version(1).stores({
      cachedReads: 'key, owner',
      outbox: 'id, owner, createdAt',
      uploads: 'id, owner, orderGuid, createdAt',
    });
    // Issue 10: the upload queue. Version 1 tables keep their rows; version 1 upload rows (none
    // were ever written: nothing queued uploads before) get the fields the queue needs.
    this.version(2)
      .stores({
        // Each index serves one read: the sync indicator (owner), the screen's page and counts, the
        // scheduler's next files ([owner+state+seq]) and the bytes still to send ([owner+state+size]).
        uploads: 'id, owner, [orderGuid+seq], [owner+orderGuid], [owner+orderGuid+state], [owner+orderGuid+paused], [owner+state+seq], [owner+state+size]',
        uploadFiles: 'id',
        uploadParts: '[entryId+partNumber], entryId',
        uploadThumbnails: 'id',
        photos: 'id, owner, orderGuid, [orderGuid+checksum], [orderGuid+createdAt], [owner+orderGuid]',
        rejections: 'id, owner, orderGuid, createdAt, [owner+orderGuid]',
      })
      .upgrade((tx) =>
        tx
          .table('uploads')
          .toCollection()
          .modify((row: Partial<UploadEntry> & { id: string; createdAt: number }) => {
            row.seq ??= row.createdAt;
            row.name ??= 'Photo queued by an earlier version';
            row.size ??= 0;
            row.type ??= '';
            row.lastModified ??= row.createdAt;
            row.paused ??= 0;
            row.createKey ??= `v1-${row.id}`;
            // Without its file nothing can be sent: the user sees it failed and can remove it.
            if (row.state !== 'failed') {
              row.failedFrom = 'queued';
              row.state = 'failed';
              row.error = 'This photo was queued by an earlier version of the app without its file. Remove it and choose it again.';
            }
          }),
      );
  }
}

export const labDb = new LabDatabase();
