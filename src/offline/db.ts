import { Dexie, type EntityTable } from 'dexie';

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

/** A photo chosen for upload, waiting or in progress (the uploader fills it). */
export interface UploadEntry {
  id: string;
  owner: string;
  orderGuid: string;
  createdAt: number;
  state: 'queued' | 'uploading' | 'failed';
}

/**
 * The app's IndexedDB. It survives reloads and app updates: unsynced changes and queued uploads
 * must never be lost to a new version.
 */
export class LabDatabase extends Dexie {
  cachedReads!: EntityTable<CachedRead, 'key'>;
  outbox!: EntityTable<OutboxEntry, 'id'>;
  uploads!: EntityTable<UploadEntry, 'id'>;

  constructor(name = 'print-lab') {
    super(name);
    this.version(1).stores({
      cachedReads: 'key, owner',
      outbox: 'id, owner, createdAt',
      uploads: 'id, owner, orderGuid, createdAt',
    });
  }
}

export const labDb = new LabDatabase();
