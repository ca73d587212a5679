/**
 * Object storage for photos, certificates and reports (DESIGN.md §2). The browser sends files
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

export interface Storage {
  presignPut(key: string, opts: { contentType: string; maxBytes: number; expiresInSeconds: number }): Promise<PresignedPut>;
  presignGet(key: string, opts: { expiresInSeconds: number; downloadName?: string }): Promise<string>;
  head(key: string): Promise<StoredObject | null>;
  /** The first bytes of an object: enough to check what it is by content. */
  readStart(key: string, bytes: number): Promise<Buffer>;
  /** The last bytes of an object: enough to tell a complete file from a cut-off upload. */
  readEnd(key: string, bytes: number): Promise<Buffer>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Moves an object to another key, where no signed upload address reaches it (S3: copy, then
   * delete). Confirming an upload moves it before checking it, so a late PUT cannot swap it.
   */
  move(from: string, to: string): Promise<void>;
  /** Removes an object and whatever was staged for its key (parts, unfinished writes); no error when absent. */
  remove(key: string): Promise<void>;
}

// Signed upload and download URLs live this long: long enough for a slow link to finish a
// certificate or a part, short enough that a leaked URL is soon useless.
export const UPLOAD_URL_TTL_S = 30 * 60;
export const DOWNLOAD_URL_TTL_S = 15 * 60;
