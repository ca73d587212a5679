/**
 * The shapes of the photo-upload wire contract (docs/upload-and-sync.md §1, issue 10) that the
 * client and the server both name. One definition, so the two halves cannot drift apart.
 */
import type { PhotoContentType } from './photo-content.ts';

/** A photo of an order, as every photo call answers it. */
export interface Photo {
  guid: string;
  photo_file_name: string;
  /** Signed GET of the screen-size preview once the derivatives job made it, else of the original. */
  photo_url: string;
  /** Signed GET of the original. */
  presigned_photo_url: string;
  /** Signed GET of the thumbnail once made, else of the original. */
  smallest_photo: string;
  width: number | null;
  height: number | null;
  size: number;
  checksum: string | null;
  content_type: PhotoContentType;
  derivatives_ready: boolean;
  /** Set when the lab found the image data damaged after accepting the photo: why, in plain words. */
  unreadable_reason: string | null;
  created_at: string;
}

export interface LabOrderCreated {
  data: { id: string; type: 'lab_order'; attributes: { guid: string; order_name: string; status: string } & Record<string, unknown> };
}

export interface LabOrderPhotographsPage {
  data: Photo[];
  meta: { total: number; page: number; per_page: number };
}

/** The body of create_presigned_url for a new upload. */
export interface PresignRequest {
  lab_order_guid: string;
  photo_file_name: string;
  content_type: PhotoContentType;
  size: number;
  /** Sent when the device knows it already: the lab then answers a photo the order has at once. */
  checksum?: string;
  multipart?: true;
}

/** The body of create_presigned_url asking fresh part URLs for an upload under way. */
export interface RenewPartsRequest {
  lab_order_guid: string;
  uploadId: string;
  part_numbers: number[];
}

export interface SignedPart {
  partNumber: number;
  signedUrl: string;
  /**
   * Headers the part PUT must carry. Not in the contract (S3's UploadPart needs none); honoured
   * when present, so the local store may ask for one without a client change.
   */
  headers?: Record<string, string>;
}

export interface SinglePresign {
  signedUrl: string;
  key: string;
  headers: Record<string, string>;
}

export interface MultipartPresign {
  uploadId: string;
  key: string;
  partSize: number;
  parts: SignedPart[];
}

export interface DuplicatePresign {
  duplicate: true;
  photograph: Photo;
}

export type PresignAnswer = SinglePresign | MultipartPresign | DuplicatePresign;

export const isDuplicate = (a: PresignAnswer): a is DuplicatePresign => 'duplicate' in a && a.duplicate === true;
export const isMultipart = (a: PresignAnswer): a is MultipartPresign => 'uploadId' in a;

export interface CompleteUploadRequest {
  uploadId: string;
  parts: { partNumber: number; etag: string }[];
}

export interface PhotographUploadedRequest {
  key: string;
  photo_file_name: string;
  checksum?: string;
  size?: number;
}
