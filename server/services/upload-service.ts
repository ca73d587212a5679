import { and, eq, isNull, lt } from 'drizzle-orm';
import type { PresignedPut, Storage } from '../adapters/storage/storage.ts';
import { UPLOAD_URL_TTL_S } from '../adapters/storage/storage.ts';
import type { Db } from '../db/client.ts';
import { storageUploads } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, notFound } from '../http/errors.ts';

/**
 * Signed uploads (DESIGN.md §5): an address is good for ONE object that has not been confirmed.
 * Each address is recorded (storage_uploads) with its owner and expiry, and writes to a key under
 * incoming/. Confirming seals the record, so a PUT to the key is refused, and moves the object
 * to its lasting key, which no signed upload address ever names; only then is it checked. A file
 * refused by the check is removed at once; one never confirmed is removed by housekeeping once
 * its address has expired. Part PUTs of a multipart upload meet the same record (by key and
 * upload id), so photos follow the same rule.
 */

export const INCOMING_PREFIX = 'incoming/';
// A PUT that started just before its address expired may still be arriving: housekeeping waits
// this long past the expiry before removing an unconfirmed upload (a 200 MB photo on a slow link).
export const UPLOAD_REMOVAL_GRACE_MS = 60 * 60 * 1000;
// Housekeeping removes at most this many uploads a run, so one run never holds the database long.
const PURGE_BATCH = 500;

export type UploadPurpose = 'certificate' | 'photo';
type UploadDeps = Pick<ServerDeps, 'db' | 'storage' | 'now'>;

const nowOf = (deps: Pick<ServerDeps, 'now'>) => deps.now?.() ?? new Date();
/** The lasting key of an upload key: incoming/<key> → <key>. */
export const sealedKeyOf = (uploadKey: string) => uploadKey.slice(INCOMING_PREFIX.length);

/** Issues a signed PUT address for a new object whose lasting key will be `key`. */
export async function issueUpload(
  deps: UploadDeps,
  input: { ownerGuid: string; purpose: UploadPurpose; key: string; contentType: string; maxBytes: number; multipartUploadId?: string },
): Promise<PresignedPut & { key: string }> {
  const uploadKey = `${INCOMING_PREFIX}${input.key}`;
  await deps.db.insert(storageUploads).values({
    key: uploadKey,
    ownerGuid: input.ownerGuid,
    purpose: input.purpose,
    multipartUploadId: input.multipartUploadId ?? null,
    contentType: input.contentType,
    maxBytes: input.maxBytes,
    expiresAt: new Date(nowOf(deps).getTime() + UPLOAD_URL_TTL_S * 1000),
  });
  const put = await deps.storage.presignPut(uploadKey, { contentType: input.contentType, maxBytes: input.maxBytes, expiresInSeconds: UPLOAD_URL_TTL_S });
  return { ...put, key: uploadKey };
}

/**
 * May a signed PUT (or a part PUT of a multipart upload) still write to this key? Throws the
 * refusal with the error body: 409 once the upload was confirmed, 403 when no open upload exists
 * (refused, removed, or never issued).
 */
export async function assertUploadOpen(deps: Pick<ServerDeps, 'db'>, key: string, multipartUploadId?: string): Promise<void> {
  const [row] = await deps.db.select().from(storageUploads).where(eq(storageUploads.key, key));
  if (row?.confirmedAt) {
    throw new HttpError(409, 'UploadSealed', 'This file was already received and checked, so it cannot be replaced. Start a new upload to send another file.');
  }
  if (!row || (multipartUploadId !== undefined && row.multipartUploadId !== multipartUploadId)) {
    throw new HttpError(403, 'Forbidden', 'This upload link is no longer valid. Please upload the file again.');
  }
}

/**
 * Seals an upload of the owner and moves it to its lasting key; answers that key. Confirming an
 * upload already sealed answers its key again (a retried confirmation), without reopening it.
 */
export async function sealUpload(deps: UploadDeps, input: { key: string; ownerGuid: string; purpose: UploadPurpose }): Promise<{ key: string; again: boolean }> {
  const mine = and(eq(storageUploads.key, input.key), eq(storageUploads.ownerGuid, input.ownerGuid), eq(storageUploads.purpose, input.purpose));
  const [row] = await deps.db.select().from(storageUploads).where(mine);
  if (!row) throw notFound('This upload does not exist.');
  if (row.confirmedAt) return { key: sealedKeyOf(row.key), again: true };
  if (!(await deps.storage.head(row.key))) throw notFound('This upload does not exist. Please upload the file again.');
  const sealed = await deps.db
    .update(storageUploads)
    .set({ confirmedAt: nowOf(deps) })
    .where(and(mine, isNull(storageUploads.confirmedAt)))
    .returning({ key: storageUploads.key });
  // Two confirmations at once: the other one sealed and moved it.
  if (!sealed.length) return { key: sealedKeyOf(row.key), again: true };
  await deps.storage.move(row.key, sealedKeyOf(row.key));
  return { key: sealedKeyOf(row.key), again: false };
}

/** A file refused by its check: removed at once, with its record (its address stops working). */
export async function discardUpload(deps: UploadDeps, uploadKey: string): Promise<void> {
  await deps.storage.remove(sealedKeyOf(uploadKey));
  await deps.storage.remove(uploadKey);
  await deps.db.delete(storageUploads).where(eq(storageUploads.key, uploadKey));
}

/**
 * Housekeeping: uploads whose address has expired (plus a grace for a PUT still arriving) lose
 * their record and whatever sits at their upload key: the file of an upload never confirmed, or
 * a late write after a confirmed one was moved away. Confirmed objects are never touched.
 * Answers how many records were removed.
 */
export async function purgeExpiredUploads(deps: { db: Db; storage: Storage; now?: () => Date }): Promise<number> {
  const cutoff = new Date(nowOf(deps).getTime() - UPLOAD_REMOVAL_GRACE_MS);
  const rows = await deps.db.select({ key: storageUploads.key }).from(storageUploads).where(lt(storageUploads.expiresAt, cutoff)).limit(PURGE_BATCH);
  for (const row of rows) {
    await deps.storage.remove(row.key);
    await deps.db.delete(storageUploads).where(eq(storageUploads.key, row.key));
  }
  return rows.length;
}
