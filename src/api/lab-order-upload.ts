/**
 * The calls of the new-order form and the photo upload (docs/api.md §7), one typed function
 * per endpoint, with the wire's shapes from the contract (src/contract/photos.ts). Mutating calls
 * take the Idempotency-Key the upload queue keeps in IndexedDB for the step, so a call repeated
 * after a crash or a lost answer changes nothing twice.
 */
import type { AnswerOf, InputOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { call } from './call.ts';
import { ApiError } from './errors.ts';

export type { Photo } from '../contract/photos.ts';

type Presign = Contract['POST /lab_orders/:guid/create_presigned_url'];
/** What create_presigned_url answers for a photo: one address, part addresses, or "already in the order". */
export type PresignAnswer = AnswerOf<Presign>;
export type SinglePresign = Extract<PresignAnswer, { signedUrl: string }>;
export type MultipartPresign = Extract<PresignAnswer, { uploadId: string }>;
export type DuplicatePresign = Extract<PresignAnswer, { duplicate: true }>;
/**
 * A part's address. Headers are not in the contract (S3's UploadPart needs none); honoured when
 * present, so the local store may ask for one without a client change.
 */
export type SignedPart = MultipartPresign['parts'][number] & { headers?: Record<string, string> };
/** The body of create_presigned_url for a new photo upload. */
export type PresignRequest = Extract<InputOf<Presign>['body'], { photo_file_name: string }>;
export type CompleteUploadRequest = InputOf<Contract['POST /lab_orders/:guid/complete_upload']>['body'];
export type PhotographUploadedRequest = InputOf<Contract['PATCH /lab_orders/:guid/photograph_uploaded']>['body'];
export type LabOrderCreated = AnswerOf<Contract['POST /lab_orders']>;
export type LabOrderPhotographsPage = AnswerOf<Contract['GET /lab_orders/:guid/lab_order_photographs']>;
export type LabOrderWithPhotos = AnswerOf<Contract['GET /lab_orders/:guid']>;

export const isDuplicate = (a: PresignAnswer): a is DuplicatePresign => 'duplicate' in a && a.duplicate === true;
export const isMultipart = (a: PresignAnswer): a is MultipartPresign => 'uploadId' in a;

/** check_unique_order_name: true when the caller already has an order of that name (200), false when free (404). */
export async function isOrderNameTaken(orderName: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await call('POST /check_unique_order_name', { body: { order_name: orderName } }, signal ? { signal } : {});
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}

export const createLabOrder = (orderName: string, idempotencyKey: string) => call('POST /lab_orders', { body: { order_name: orderName } }, { idempotencyKey });

export const getLabOrder = (guid: string, signal?: AbortSignal) => call('GET /lab_orders/:guid', { params: { guid } }, signal ? { signal } : {});

export const getLabOrderPhotographs = (guid: string, page: number, perPage: number, signal?: AbortSignal) =>
  call('GET /lab_orders/:guid/lab_order_photographs', { params: { guid }, query: { page, per_page: perPage } }, signal ? { signal } : {});

export const getPhotograph = (guid: string, photoGuid: string) => call('GET /lab_orders/:guid/photographs/:photoGuid', { params: { guid, photoGuid } });

/** create_presigned_url for a new upload: single URL, multipart URLs, or "already in the order". */
export const createPhotoUpload = (orderGuid: string, body: Omit<PresignRequest, 'lab_order_guid'>, idempotencyKey: string) =>
  call('POST /lab_orders/:guid/create_presigned_url', { params: { guid: orderGuid }, body: { lab_order_guid: orderGuid, ...body } }, { idempotencyKey });

/** create_presigned_url for fresh part URLs of an upload under way (expired, or lost with a reload). */
export async function renewPartUrls(orderGuid: string, uploadId: string, partNumbers: number[], idempotencyKey: string): Promise<MultipartPresign> {
  const answer = await call('POST /lab_orders/:guid/create_presigned_url', { params: { guid: orderGuid }, body: { lab_order_guid: orderGuid, uploadId, part_numbers: partNumbers } }, { idempotencyKey });
  if (isMultipart(answer)) return answer;
  throw new ApiError('http', 'The lab answered no part addresses for this upload.');
}

export const completeUpload = (orderGuid: string, body: CompleteUploadRequest, idempotencyKey: string) =>
  call('POST /lab_orders/:guid/complete_upload', { params: { guid: orderGuid }, body }, { idempotencyKey });

/** photograph_uploaded: the server checks the stored object, then the photo joins the order. */
export const confirmPhotograph = (orderGuid: string, body: PhotographUploadedRequest, idempotencyKey: string) =>
  call('PATCH /lab_orders/:guid/photograph_uploaded', { params: { guid: orderGuid }, body }, { idempotencyKey });
