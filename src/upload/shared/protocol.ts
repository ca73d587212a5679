/**
 * What the upload worker offers the page, through the one Comlink bridge
 * (src/upload/page/upload-worker-bridge.ts), and the plain data both sides exchange. Both sides
 * import this file and nothing here imports either side, so the page and the worker never import
 * each other. Files cross as Blob handles: structured cloning a Blob
 * copies a reference to its disk-backed bytes, never the bytes, so a 60 MB photo costs nothing to
 * hand over. Nothing returns a large ArrayBuffer; if one ever does, send it with Comlink.transfer.
 */
import type { PhotoContentType } from '../../domain/photo-content.ts';
import type { UploadEntry } from '../../offline/db.ts';
import type { FailureAction } from './upload-retry.ts';
import type { QueueFilesResult } from './upload-store.ts';

/** How a stored photo's check ended; 'worker-failed' is the worker's fault, not the photo's. */
export type PrepareOutcome = 'ready' | 'rejected' | 'failed' | 'worker-failed';

/** How a file's run ended, as plain data (it crosses from the worker to the page). */
export type SendOutcome =
  | { kind: 'end'; end: 'done' | 'rejected' | 'failed' | 'gone' }
  /** A failure for the scheduler: wait for the connection, back off, or fail the file. */
  | { kind: 'step'; action: FailureAction; message: string }
  | { kind: 'aborted' }
  /** Not a failure the steps know: a bug, reported with its words. */
  | { kind: 'bug'; message: string };

/** What the sender tells the scheduler while files run. */
export interface SenderHooks {
  /** Bytes of this file in storage or on their way, and whether storage or the lab has it now. */
  onBytes(entryId: string, sent: number, phase: 'sending' | 'processing'): void;
  /** Something got through: the file's failure counters start again. */
  onProgressMade(entryId: string): void;
  /** A PUT got no answer at all: the link, not the file, is the likely trouble. */
  onNoAnswer(): void;
}

/** The sender as the scheduler uses it, in the worker or in-process alike. */
export interface SenderPort {
  run(entry: UploadEntry): Promise<SendOutcome>;
  abort(entryIds: readonly string[]): void;
  /** The one listener of the sender's hooks; returns the unsubscribe. */
  listen(hooks: SenderHooks): () => void;
}

export interface ThumbnailResult {
  blob: Blob;
  /** The camera's embedded EXIF preview, or a resized decode of the photo. */
  source: 'exif' | 'decoded';
  width: number;
  height: number;
  /** Time the worker spent making it. */
  ms: number;
}

export type InspectResult =
  | { ok: true; contentType: PhotoContentType; width: number | null; height: number | null; thumbnail: ThumbnailResult | null }
  | { ok: false; reason: string };

export interface PutRequest {
  /** Chosen by the caller; progress and abort name the request by it. */
  id: string;
  url: string;
  headers: Record<string, string>;
  file: Blob;
  /** The byte range to send, [start, end). */
  start: number;
  end: number;
}

export type PutResult =
  | { ok: true; status: number; etag: string | null }
  | {
      ok: false;
      /** 0 when there was no answer. */
      status: number;
      reason: 'http' | 'network' | 'stalled' | 'aborted';
      className: string | null;
      message: string | null;
    };

/** Bytes sent so far of each request in flight: [request id, bytes]. */
export type ProgressBatch = [string, number][];

export interface UploadWorkerApi {
  /**
   * Keeps chosen files in the queue (upload-store.ts queueFiles: all or none), on the worker's
   * IndexedDB connection: storing hundreds of File handles made a long task on the page's thread
   * (docs/performance-notes.md §7). `onStored` hears of each group stored.
   */
  queueFiles(owner: string, orderGuid: string, files: File[], onStored: () => void): Promise<QueueFilesResult>;
  /** Content check (magic bytes), pixel size and thumbnail, from the first bytes and one decode at most. */
  inspect(file: Blob, name: string, thumbnailSide: number): Promise<InspectResult>;
  /** The thumbnail alone: the EXIF preview when there is one and `preferExif`, else a resized decode. */
  thumbnail(file: Blob, side: number, preferExif: boolean): Promise<ThumbnailResult | null>;
  /** SHA-256 of the whole file, hex, read in slices (never the whole file in memory). */
  sha256(file: Blob): Promise<string>;
  /**
   * A queued photo's whole check (src/upload/worker/upload-check.ts checkStoredPhoto) on the worker's
   * IndexedDB connection: its stored File read, inspected and hashed, its thumbnail kept, its row
   * made ready (or the photo rejected or failed).
   */
  check(entry: UploadEntry): Promise<PrepareOutcome>;
  /**
   * Runs one queued photo's steps to its end in the worker (src/upload/worker/upload-sender.ts): every
   * part's PUT and record, URL renewals, complete_upload, photograph_uploaded. `token` is the
   * session's, for the lab calls (a worker has no local storage to read it from).
   */
  send(entry: UploadEntry, token: string | null): Promise<SendOutcome>;
  abortSends(entryIds: string[]): void;
  /** The one channel back: the files' progress and what the page must know, batched (SendEvents). */
  setSendListener(listener: (events: SendEvents) => void): void;
}

/** What the sender tells the page, at most every 250 ms (at once for noAnswer and unauthorized). */
export interface SendEvents {
  /** [entry id, bytes in storage or on their way, phase], the latest of each file. */
  bytes: [string, number, 'sending' | 'processing'][];
  /** Files that got something through since the last batch (their backoff starts again). */
  progressMade: string[];
  /** A PUT got no answer at all, or a lab call could not reach the lab. */
  noAnswer: boolean;
  /** The token the lab answered 401 to: the session it belongs to has ended. */
  unauthorized: string | null;
  /** Faults of the lab the worker's calls met (5xx), for the page to report: [message, tags]. */
  faults: [string, Record<string, string>][];
}
