import type { Readable } from 'node:stream';

/**
 * Object storage for photos, certificates and reports (docs/architecture.md §2). The browser sends files
 * straight to storage through short-lived signed URLs; the API only signs and verifies.
 */
export interface PresignedPut {
  url: string;
  /** Headers the PUT must carry (the signed content type). */
  headers: Record<string, string>;
}

export interface StoredObject {
  size: number;
  contentType: string | null;
}

/** A part of a multipart upload as the browser reported it: its number and the ETag its PUT answered. */
export interface UploadedPart {
  partNumber: number;
  etag: string;
}

/** A copy of an object as a file on this machine (sharp reads files without holding them in memory). */
export interface LocalCopy {
  path: string;
  /** Removes the copy when it was made for the caller; the store's own file is left alone. */
  release(): Promise<void>;
}

/** Something that reads an object's bytes in order while the store writes them (jpeg-end.ts's scanner). */
export interface ByteScan {
  push(chunk: Buffer): void;
  /** Whether the bytes seen so far form a whole file. */
  readonly complete: boolean;
}

/** An object's SHA-256, and a ByteScan's verdict, as the store computed them when it wrote the object. */
export interface ObjectDigest {
  size: number;
  sha256: string;
  /** The scan's `complete` at the last byte; absent when the object was written without a scan. */
  whole?: boolean;
}

/** An unfinished multipart upload as the store lists it. */
export interface OpenMultipart {
  key: string;
  uploadId: string;
  startedAt: Date;
}

export interface Storage {
  /** The origin browsers send photos to, when it is not the lab's own (S3: its endpoint's). */
  browserOrigin?(): Promise<string>;
  presignPut(key: string, opts: { contentType: string; maxBytes: number; expiresInSeconds: number }): Promise<PresignedPut>;
  /**
   * A signed GET address. `signedAt` (a moment in the recent past) signs as of then, so calls
   * within a while hand out the same, cacheable address; it lasts expiresInSeconds from then.
   */
  presignGet(key: string, opts: { expiresInSeconds: number; downloadName?: string; signedAt?: Date }): Promise<string>;
  head(key: string): Promise<StoredObject | null>;
  /** The first bytes of an object: enough to check what it is by content. */
  readStart(key: string, bytes: number): Promise<Buffer>;
  /** The last bytes of an object: enough to tell a complete file from a cut-off upload. */
  readEnd(key: string, bytes: number): Promise<Buffer>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Writes a stream to an object without holding it in memory (S3: a multipart upload a part at
   * a time); the object appears only once the stream has ended. Answers its size in bytes.
   */
  putStream(key: string, body: Readable, contentType: string): Promise<number>;
  /**
   * Moves an object to another key, where no signed upload address reaches it (S3: copy, then
   * delete). Confirming an upload moves it before checking it, so a late PUT cannot swap it.
   */
  move(from: string, to: string): Promise<void>;
  /**
   * Removes an object and whatever was staged for its key (parts and unfinished multipart
   * uploads, unfinished writes); no error when absent.
   */
  remove(key: string): Promise<void>;
  /** The whole object as a stream (never held in memory at once). */
  stream(key: string): Readable | Promise<Readable>;
  /** The object as a file on this machine; release() it when done. */
  localCopy(key: string): Promise<LocalCopy>;

  // S3-style multipart upload: start → signed part PUTs (each answers an ETag) → complete.
  /**
   * Starts a multipart upload of `key`; answers its upload id. A store that reads the parts as they
   * arrive (the local one) hashes them then and feeds them, in order, to `scan`, so completing
   * need not read them again; the others ignore it. `partSize`: every part but the last will be
   * this long (the local store writes each part at its place in the object, S3 ignores it).
   */
  createMultipart(key: string, opts: { contentType: string; partSize?: number; scan?: ByteScan }): Promise<string>;
  /** A signed PUT address for one part (1-based); the part may be at most maxBytes long. */
  presignPart(key: string, uploadId: string, partNumber: number, opts: { maxBytes: number; expiresInSeconds: number }): Promise<string>;
  /**
   * Joins the parts, in order, into the object at `key`; a store that reads the bytes while joining
   * feeds them to `scan` and keeps its verdict with the digest. Throws NoSuchUpload when the upload is
   * unknown or already finished, InvalidPart when a part is missing or its ETag differs,
   * EntityTooSmall when a part but the last is under MIN_PART_BYTES.
   */
  completeMultipart(key: string, uploadId: string, parts: UploadedPart[], scan?: ByteScan): Promise<void>;
  /**
   * The digest the store computed while it joined a multipart upload (the local store reads every
   * byte then anyway), so the confirmation need not read the object again; null when it has none
   * (S3, whose own checksums are not SHA-256 of the whole object; a single PUT).
   */
  digest?(key: string): Promise<ObjectDigest | null>;
  /** Drops an unfinished multipart upload and its parts; no error when absent. */
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /**
   * Every unfinished multipart upload of the store started before `before` (S3:
   * ListMultipartUploads), so housekeeping can abort those no upload record owns; none where the
   * store cannot list them. Absent on the local store, which keeps a multipart upload only while
   * its upload record lives.
   */
  multipartStartedBefore?(before: Date): Promise<OpenMultipart[]>;
}

/** Why a multipart step was refused, the same for every store (S3 names them the same way). */
export class MultipartError extends Error {
  readonly code: 'NoSuchUpload' | 'InvalidPart' | 'InvalidPartOrder' | 'EntityTooSmall';
  readonly partNumber: number | undefined;
  constructor(code: MultipartError['code'], message: string, partNumber?: number) {
    super(message);
    this.code = code;
    this.partNumber = partNumber;
  }
}

/** The ETag as a bare value: browsers and S3 send it quoted, sometimes not. */
export const bareEtag = (etag: string) => etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');

// Signed upload and download URLs live this long: long enough for a slow link to finish a
// certificate or a part, short enough that a leaked URL is soon useless.
export const UPLOAD_URL_TTL_S = 30 * 60;
export const DOWNLOAD_URL_TTL_S = 15 * 60;
// Part URLs of a multipart upload live 15 minutes (docs/upload-and-sync.md §1): one part of 8 MiB takes
// well under that even at 1 Mbit/s, and the client asks for fresh ones when they run out.
export const PART_URL_TTL_S = 15 * 60;
// S3 refuses parts below 5 MiB, but the last; the local store refuses them too, so a client that
// works against it works against S3.
export const MIN_PART_BYTES = 5 * 1024 * 1024;
// The part size of a stream written to S3 (putStream): above S3's minimum; 10,000 of them hold
// an 80 GiB zip, more than any order's originals.
export const STREAM_PART_BYTES = 8 * 1024 * 1024;
