/**
 * What the upload worker offers the page, through the one Comlink bridge
 * (src/offline/upload-worker-bridge.ts). Files cross as Blob handles: structured cloning a Blob
 * copies a reference to its disk-backed bytes, never the bytes, so a 60 MB photo costs nothing to
 * hand over. Nothing returns a large ArrayBuffer; if one ever does, send it with Comlink.transfer.
 */
import type { PhotoContentType } from '../../src/domain/photo-content.ts';

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
  /** Content check (magic bytes), pixel size and thumbnail, from the first bytes and one decode at most. */
  inspect(file: Blob, name: string, thumbnailSide: number): Promise<InspectResult>;
  /** The thumbnail alone: the EXIF preview when there is one and `preferExif`, else a resized decode. */
  thumbnail(file: Blob, side: number, preferExif: boolean): Promise<ThumbnailResult | null>;
  /** SHA-256 of the whole file, hex, read in slices (never the whole file in memory). */
  sha256(file: Blob): Promise<string>;
  /** One PUT of a byte range to a signed URL, with progress through the listener. */
  put(request: PutRequest): Promise<PutResult>;
  abort(ids: string[]): void;
  /** The one progress channel: batches of every request's bytes, a few times a second. */
  setProgressListener(listener: (batch: ProgressBatch) => void): void;
}
