/**
 * The calls of the new-order form and the photo upload (docs/api.md §7), one typed function
 * per endpoint. Mutating calls take the Idempotency-Key the upload queue keeps in IndexedDB for
 * the step, so a call repeated after a crash or a lost answer changes nothing twice.
 */
import { API, routePath } from '../domain/paths.ts';
import type {
  CompleteUploadRequest,
  LabOrderCreated,
  LabOrderPhotographsPage,
  MultipartPresign,
  Photo,
  PhotographUploadedRequest,
  PresignAnswer,
  PresignRequest,
} from '../domain/photo-upload-wire.ts';
import { apiRequest } from './client.ts';
import { ApiError } from './errors.ts';

/** check_unique_order_name: true when the caller already has an order of that name (200), false when free (404). */
export async function isOrderNameTaken(orderName: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await apiRequest<{ success: true }>('POST', API.checkUniqueOrderName, { body: { order_name: orderName }, ...(signal ? { signal } : {}) });
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}

export const createLabOrder = (orderName: string, idempotencyKey: string) =>
  apiRequest<LabOrderCreated>('POST', API.labOrders, { body: { order_name: orderName }, idempotencyKey });

export interface LabOrderWithPhotos {
  data: { id: string; type: 'lab_order'; attributes: { guid: string; order_name: string; status: string; images: Photo[] } & Record<string, unknown> };
}

export const getLabOrder = (guid: string, signal?: AbortSignal) =>
  apiRequest<LabOrderWithPhotos>('GET', routePath(API.labOrder, { guid }), signal ? { signal } : {});

export const getLabOrderPhotographs = (guid: string, page: number, perPage: number, signal?: AbortSignal) =>
  apiRequest<LabOrderPhotographsPage>('GET', `${routePath(API.labOrderPhotographs, { guid })}?page=${page}&per_page=${perPage}`, signal ? { signal } : {});

export const getPhotograph = (guid: string, photoGuid: string) =>
  apiRequest<{ data: Photo }>('GET', routePath(API.photograph, { guid, photoGuid }));

/** create_presigned_url for a new upload: single URL, multipart URLs, or "already in the order". */
export const createPhotoUpload = (orderGuid: string, body: Omit<PresignRequest, 'lab_order_guid'>, idempotencyKey: string) =>
  apiRequest<PresignAnswer>('POST', routePath(API.createPresignedUrl, { guid: orderGuid }), {
    body: { lab_order_guid: orderGuid, ...body },
    idempotencyKey,
  });

/** create_presigned_url for fresh part URLs of an upload under way (expired, or lost with a reload). */
export const renewPartUrls = (orderGuid: string, uploadId: string, partNumbers: number[], idempotencyKey: string) =>
  apiRequest<MultipartPresign>('POST', routePath(API.createPresignedUrl, { guid: orderGuid }), {
    body: { lab_order_guid: orderGuid, uploadId, part_numbers: partNumbers },
    idempotencyKey,
  });

export const completeUpload = (orderGuid: string, body: CompleteUploadRequest, idempotencyKey: string) =>
  apiRequest<{ key: string }>('POST', routePath(API.completeUpload, { guid: orderGuid }), { body, idempotencyKey });

/** photograph_uploaded: the server checks the stored object, then the photo joins the order. */
export const confirmPhotograph = (orderGuid: string, body: PhotographUploadedRequest, idempotencyKey: string) =>
  apiRequest<{ data: Photo }>('PATCH', routePath(API.photographUploaded, { guid: orderGuid }), { body, idempotencyKey });
