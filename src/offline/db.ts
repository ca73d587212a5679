import { Dexie, type EntityTable, type Table, type Transaction } from 'dexie';
import type { LabOrderListAttributes } from '../api/lab-orders.ts';
import type { BuilderLineItem } from '../client-rules/line-items.ts';
import type { Cents } from '../domain/money.ts';
import type { PhotoContentType } from '../domain/photo-content.ts';
import type { UploadState } from '../upload/shared/upload-state.ts';

/** The last answer of a signed-in list read, shown while offline. */
export interface CachedRead {
  /** `${owner}|${what}` */
  key: string;
  /** The email of the user the data belongs to. */
  owner: string;
  savedAt: number;
  payload: unknown;
}

/**
 * A change made on the device, waiting to be sent (src/offline/outbox-handlers.ts names them and
 * types their payloads). The first five fields are the row's whole shape as version 1 wrote it:
 * the drain reads rows without the optional ones too.
 */
export interface OutboxEntry {
  id: string;
  owner: string;
  createdAt: number;
  name: string;
  payload: unknown;
  /** Sending order on this device: strictly increasing, even for changes of the same millisecond. */
  seq?: number;
  /** Sent with every try, so a try repeated after a crash or a lost answer is a replay. */
  idempotencyKey?: string;
  /** Failed tries so far (no answer, or the lab busy): the backoff grows with them. */
  attempts?: number;
  /** Not tried again before this time (ms since 1970). */
  notBefore?: number;
  /** Why the last try failed, for the developer (the user sees the count waiting). */
  lastError?: string;
}

/** An order as this device knows it: the lab's last answer, with the totals in cents. */
export interface LocalOrder {
  guid: string;
  owner: string;
  name: string;
  status: string;
  subtotalCents: Cents;
  discountCents: Cents;
  creditCents: Cents;
  boutiqueCents: Cents;
  shippingCents: Cents;
  /** The drop-ship fee (issue 34); absent on orders kept before it existed. */
  dropShipCents?: Cents;
  totalCents: Cents;
  notes: string | null;
  /**
   * A new value each time an answer to a sent change is written for this order, by the page or by
   * the service worker: a read of the order begun before it changed is older than the tables
   * (refreshOrderWith). Not indexed; absent until the first answer.
   */
  sentStamp?: string;
}

/**
 * The list's part of an order row (version 5): the lab's last list answer for it, and its place
 * in the list. `listAt` is the shown date (paid, else updated) in ms and `listId` the lab's order
 * number that breaks ties, as the lab sorts (newest first); rows without them are not listed.
 */
export interface ListedPart {
  listed?: LabOrderListAttributes;
  listAt?: number;
  listId?: number;
}

/**
 * One row per order in the orders table: the builder's part (LocalOrder's figures, once the
 * builder or the cart has read the order), the list's part (once a list showed it), or both.
 */
export type OrderRow = Pick<LocalOrder, 'guid' | 'owner'> & Partial<Omit<LocalOrder, 'guid' | 'owner'>> & ListedPart;

/** A line item as screens show it: the lab's, or changed here and not yet confirmed by the lab. */
export interface LocalLineItem extends BuilderLineItem {
  owner: string;
  /** A change of it waits in the outbox. */
  pending: boolean;
  /** The lab refused a change of it: what happened and what the user can do; null otherwise. */
  refusal: string | null;
  /**
   * The refusal said the lab no longer has the item (a 404 to a change of it): set by the drain
   * from the answer's status, so screens never read it out of the refusal's words. Absent on rows
   * written before it existed, and on every item the lab has.
   */
  gone?: boolean;
  /** Its place in the cart: the order it was added in. */
  sortKey: number;
}

/**
 * The stored row: the shown line item plus what the sync needs and screens do not. `deleted` rows
 * are deletions not yet confirmed (hidden; shown again if the lab refuses); `confirmed` is the
 * lab's last word on the item (null: the lab has never had it), put back when a refusal is dismissed.
 */
export interface LineItemRow extends LocalLineItem {
  /** The order's guid again (= labOrderGuid), under the name the [owner+orderGuid] index reads. */
  orderGuid: string;
  deleted: 0 | 1;
  confirmed: BuilderLineItem | null;
}

/** The token the service worker sends an owner's changes with while the app is closed. */
export interface SyncCredential {
  owner: string;
  token: string;
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
  /**
   * SHA-256 of the whole file, hex, from the worker: computed while the photo is being sent
   * (upload-steps.ts), kept here for a resume, and checked by the lab at confirmation.
   */
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
  /** The server's screen-size preview (the builder's cropper shows it); not indexed, no new version. */
  previewUrl?: string;
  /** Pixel size of the original, once known: the builder's resolution check needs it. */
  width?: number;
  height?: number;
  /** Why the lab cannot print it, when its image data turned out damaged after it was accepted; not indexed. */
  unreadableReason?: string;
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
  orders!: EntityTable<OrderRow, 'guid'>;
  lineItems!: EntityTable<LineItemRow, 'guid'>;
  syncCredentials!: EntityTable<SyncCredential, 'owner'>;

  constructor(name = 'print-lab') {
    // No shared live-query cache: Dexie 4's default deep-clones every live result on read and
    // applies each write to the cached results inside the write's own callback, which during a
    // large upload (a write per part and per state) made long main-thread tasks in IndexedDB
    // callbacks (docs/performance-notes.md §5). Each live query re-reads after a commit instead.
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
    // Issue 11: orders and line items on the device, and the outbox in sending order. Every table
    // of version 2 keeps its rows (Dexie changes only what is named here); outbox rows of earlier
    // versions have no seq and are sent first, in createdAt order (outbox-drain.ts).
    this.version(3).stores({
      outbox: 'id, owner, createdAt, seq',
      orders: 'guid, owner',
      lineItems: 'guid, owner, orderGuid, [owner+orderGuid]',
      syncCredentials: 'owner',
    });
    // The upload screen's queue and photo grid read one owner's order in order from an index of
    // its own, a single key range instead of a walk of the order's rows filtered by owner: a
    // filtered walk made each live re-read (one per queue write) track every row it passed
    // (docs/performance-notes.md §5). Only indexes are added: every row of every table stays as it is.
    this.version(4).stores({
      uploads:
        'id, owner, [orderGuid+seq], [owner+orderGuid], [owner+orderGuid+state], [owner+orderGuid+paused], [owner+state+seq], [owner+state+size], [owner+orderGuid+seq]',
      photos: 'id, owner, orderGuid, [orderGuid+checksum], [orderGuid+createdAt], [owner+orderGuid], [owner+orderGuid+createdAt]',
    });
    // Issue 13: the orders list reads the orders table (local-first) instead of a kept copy of its
    // pages. The list's index holds only rows a list has shown; the builder's rows stay as they
    // are. The kept pages of version 4 become rows, so an updated app offline still lists them.
    this.version(5)
      .stores({ orders: 'guid, owner, [owner+listAt+listId]' })
      .upgrade((tx) => keptListsToRows(tx));
  }
}

/** A kept read of the list as versions 1-4 stored it: `${owner}|lab_orders`, the pages loaded. */
const KEPT_LIST = /^(.*)\|lab_orders$/;

/** Version 5's upgrade: each owner's kept list pages become listed order rows. */
async function keptListsToRows(tx: Transaction): Promise<void> {
  const kept = (await tx.table('cachedReads').toArray()) as CachedRead[];
  for (const read of kept) {
    const owner = KEPT_LIST.exec(read.key)?.[1];
    const data = (read.payload as { data?: unknown } | null)?.data;
    if (owner === undefined || !Array.isArray(data)) continue;
    for (const item of data as { attributes?: Partial<LabOrderListAttributes> }[]) {
      const a = item?.attributes;
      if (!a || typeof a.guid !== 'string' || typeof a.id !== 'number') continue;
      const at = Date.parse(a.paid_at ?? a.updated_at ?? '');
      if (Number.isNaN(at)) continue;
      const row = (await tx.table('orders').get(a.guid)) as OrderRow | undefined;
      // A builder row of the same owner keeps its figures; anyone else's row is not touched.
      if (row && row.owner !== owner) continue;
      await tx.table('orders').put({ ...(row ?? { guid: a.guid, owner }), listed: a, listAt: at, listId: a.id });
    }
    // What is left of the kept read: when the list last answered (the offline notice's time).
    await tx.table('cachedReads').put({ ...read, payload: null });
  }
}

export const labDb = new LabDatabase();
