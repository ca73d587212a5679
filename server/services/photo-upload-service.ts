import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { MultipartError, type UploadedPart } from '../adapters/storage/storage.ts';
import { photographs } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, unauthorized, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { MAX_PHOTO_BYTES } from '../../src/domain/photo-content.ts';
import { JpegEndScanner } from './jpeg-end.ts';
import { ownOrder, type OrderRow } from './order-access.ts';
import { photoAnswer, type PhotoRow } from './photo-service.ts';
import { INCOMING_PREFIX, issueMultipartUpload, issueUpload, openMultipartUpload, signParts, type UploadRow } from './upload-service.ts';

/**
 * Signed addresses for a photo of an order, straight to storage (docs/upload-and-sync.md §1 and
 * 3): one PUT, or S3-style multipart with part addresses that can be asked for again; the same
 * bytes already in the order are not sent again.
 */

export type PhotoContentType = 'image/jpeg' | 'image/png';
export interface NewPhotoUpload {
  lab_order_guid: string;
  photo_file_name: string;
  content_type: PhotoContentType;
  // Optional as docs/orders.md §7 has it: the confirmation measures and hashes the stored object.
  size?: number | undefined;
  checksum?: string | undefined;
  multipart?: boolean | undefined;
}
export interface RenewParts {
  lab_order_guid: string;
  uploadId: string;
  part_numbers: number[];
}

// Parts of 8 MiB: a 10–60 MB photo has 2–8 parts, so a dropped connection costs at most one
// part, and a 200 MB photo has 25; above S3's 5 MiB minimum.
export const PART_SIZE = 8 * 1024 * 1024;
const EXTENSION: Record<PhotoContentType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png' };
const UPLOAD_GONE = 'This upload is already finished or no longer exists. Please upload the photo again.';

/** The upload keys of an order's photos: incoming/photos/<order>/<uuid>.jpg|png (no other path reaches storage). */
export const photoUploadKeyOf = (orderGuid: string) => new RegExp(`^${INCOMING_PREFIX}photos/${orderGuid}/[0-9a-f-]{36}\\.(jpg|png)$`);
const inOrder = (row: UploadRow, order: OrderRow) => photoUploadKeyOf(order.guid).test(row.key);

export async function photoByChecksum(deps: Pick<ServerDeps, 'db'>, orderId: number, checksum: string): Promise<PhotoRow | null> {
  const [photo] = await deps.db
    .select()
    .from(photographs)
    .where(and(eq(photographs.labOrderId, orderId), eq(photographs.checksum, checksum)));
  return photo ?? null;
}

const partCount = (size: number, partSize: number) => Math.max(1, Math.ceil(size / partSize));
/** Part n (1-based) of a file: how many bytes it holds. */
const partBytes = (size: number, partSize: number, n: number) => Math.min(partSize, size - (n - 1) * partSize);

/** create_presigned_url for a photo: a new upload, fresh part addresses, or "already in the order". */
export async function presignPhoto(deps: ServerDeps, actor: Actor | null, orderGuid: string, input: NewPhotoUpload | RenewParts) {
  if (!actor) throw unauthorized();
  const order = await ownOrder(deps, actor, orderGuid, { open: true });
  // The order is receiving photos: previews leave a core to the upload (upload-activity.ts).
  deps.uploadActivity?.touch(order.guid);
  if (input.lab_order_guid !== order.guid) throw validationError('lab_order_guid must name the order in the address.');
  const owner = actor.user.guid;
  if ('uploadId' in input) return renewParts(deps, owner, order, input);

  const duplicate = input.checksum ? await photoByChecksum(deps, order.id, input.checksum) : null;
  if (duplicate) return { duplicate: true as const, photograph: await photoAnswer(deps, duplicate) };

  const upload = {
    ownerGuid: owner,
    purpose: 'photo' as const,
    key: `photos/${order.guid}/${randomUUID()}.${EXTENSION[input.content_type]}`,
    contentType: input.content_type,
    // The address takes no more than the browser said it would send (or the lab's largest photo).
    maxBytes: input.size ?? MAX_PHOTO_BYTES,
    ...(input.size !== undefined ? { declaredSize: input.size } : {}),
    ...(input.checksum ? { checksum: input.checksum } : {}),
    fileName: input.photo_file_name,
  };
  if (!input.multipart || input.size === undefined) {
    const single = await issueUpload(deps, upload);
    return { signedUrl: single.url, key: single.key, headers: single.headers };
  }
  // A store that hashes parts as they arrive walks a JPEG to its end marker on the way too.
  const scan = input.content_type === 'image/jpeg' ? new JpegEndScanner() : undefined;
  const row = await issueMultipartUpload(deps, { ...upload, partSize: PART_SIZE, ...(scan ? { scan } : {}) });
  const numbers = Array.from({ length: partCount(input.size, PART_SIZE) }, (_, i) => i + 1);
  return multipartAnswer(deps, row, numbers);
}

async function multipartAnswer(deps: ServerDeps, row: UploadRow, numbers: number[]) {
  const size = row.declaredSize ?? 0;
  const partSize = row.partSize ?? PART_SIZE;
  const parts = await signParts(
    deps,
    row,
    numbers.map((n) => ({ partNumber: n, bytes: partBytes(size, partSize, n) })),
  );
  return { uploadId: row.multipartUploadId ?? '', key: row.key, partSize, parts };
}

/** Fresh part addresses for an upload under way (expired ones, or lost with a reload). */
async function renewParts(deps: ServerDeps, owner: string, order: OrderRow, input: RenewParts) {
  const row = await openMultipartUpload(deps, { uploadId: input.uploadId, ownerGuid: owner, purpose: 'photo' });
  // Finished: confirmed, or its parts already joined into the object.
  if (!row || !inOrder(row, order) || row.confirmedAt || (await deps.storage.head(row.key))) throw notFound(UPLOAD_GONE);
  const count = partCount(row.declaredSize ?? 0, row.partSize ?? PART_SIZE);
  const wrong = input.part_numbers.filter((n) => n > count);
  if (wrong.length) throw validationError(`This upload has ${count} parts; there is no part ${wrong.join(', ')}.`);
  return multipartAnswer(deps, row, [...new Set(input.part_numbers)].sort((a, b) => a - b));
}

const MULTIPART_REFUSAL: Record<MultipartError['code'], (part?: number) => string> = {
  NoSuchUpload: () => UPLOAD_GONE,
  InvalidPart: (part) => `${part ? `Part ${part}` : 'A part'} did not arrive as it was sent. Please send it again.`,
  InvalidPartOrder: () => 'List every part once, in ascending order.',
  EntityTooSmall: (part) => `${part ? `Part ${part}` : 'A part'} is smaller than 5 MiB; only the last part may be.`,
};

/** complete_upload: the parts are joined into the photo's object (then photograph_uploaded checks it). */
export async function completePhotoUpload(deps: ServerDeps, actor: Actor | null, orderGuid: string, input: { uploadId: string; parts: UploadedPart[] }) {
  if (!actor) throw unauthorized();
  const order = await ownOrder(deps, actor, orderGuid, { open: true });
  deps.uploadActivity?.touch(order.guid);
  const row = await openMultipartUpload(deps, { uploadId: input.uploadId, ownerGuid: actor.user.guid, purpose: 'photo' });
  if (!row || !inOrder(row, order)) throw notFound(UPLOAD_GONE);
  // Completed (maybe confirmed) before: a retry after a lost answer gets the same answer, whatever
  // the store says of an upload it has already finished.
  if (row.confirmedAt || (await deps.storage.head(row.key))) return { key: row.key };
  const count = partCount(row.declaredSize ?? 0, row.partSize ?? PART_SIZE);
  const listed = new Set(input.parts.map((p) => p.partNumber));
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !listed.has(n));
  if (missing.length) throw validationError(`Part${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of this photo ${missing.length > 1 ? 'have' : 'has'} not been sent yet.`);
  if (input.parts.length > count) throw validationError(`This upload has ${count} parts; list each once.`);
  try {
    // A store that reads the bytes while joining them (the local one) walks a JPEG to its end
    // marker on the way, so the confirmation need not read the photo again (photo-checks.ts).
    const scan = row.contentType === 'image/jpeg' ? new JpegEndScanner() : undefined;
    await deps.storage.completeMultipart(row.key, input.uploadId, input.parts, scan);
  } catch (err) {
    if (!(err instanceof MultipartError)) throw err;
    if (err.code === 'NoSuchUpload') {
      if (await deps.storage.head(row.key)) return { key: row.key };
      throw notFound(UPLOAD_GONE);
    }
    throw validationError(MULTIPART_REFUSAL[err.code](err.partNumber), [err.code]);
  }
  return { key: row.key };
}
