import { and, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ByteScan, PresignedPut, Storage } from '../adapters/storage/storage.ts';
import { PART_URL_TTL_S, UPLOAD_URL_TTL_S } from '../adapters/storage/storage.ts';
import type { Db } from '../db/client.ts';
import { storageUploads } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, notFound } from '../http/errors.ts';

/**
 * Signed uploads (docs/lab-rules.md §5): an address is good for ONE object that has not been confirmed.
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
// A multipart upload may pause for a night (a laptop closed on a train, opened at the studio):
// its parts are kept this long after its last part URL expired, so it resumes where it stopped.
export const MULTIPART_REMOVAL_GRACE_MS = 24 * 60 * 60 * 1000;
// Housekeeping removes at most this many uploads a run, so one run never holds the database long.
const PURGE_BATCH = 500;
// A multipart upload in the store that no upload record owns was left by a crash: between
// starting it and recording it (issueMultipartUpload), or in the middle of a streamed write (an
// order's zip, putStream), which has no record. Housekeeping aborts it once it is a day old: far
// longer than either step or any zip takes. An upload with a record goes with its record.
export const ABANDONED_MULTIPART_AGE_MS = 24 * 60 * 60 * 1000;

export type UploadPurpose = 'certificate' | 'photo';
type UploadDeps = Pick<ServerDeps, 'db' | 'storage' | 'now'>;
export type UploadRow = typeof storageUploads.$inferSelect;
/** What the browser said it would send; the confirmation checks the object against it. */
export interface Declared {
  declaredSize?: number;
  checksum?: string;
  fileName?: string;
}

const nowOf = (deps: Pick<ServerDeps, 'now'>) => deps.now?.() ?? new Date();
/** The lasting key of an upload key: incoming/<key> → <key>. */
export const sealedKeyOf = (uploadKey: string) => uploadKey.slice(INCOMING_PREFIX.length);

/** Issues a signed PUT address for a new object whose lasting key will be `key`. */
export async function issueUpload(
  deps: UploadDeps,
  input: { ownerGuid: string; purpose: UploadPurpose; key: string; contentType: string; maxBytes: number; multipartUploadId?: string } & Declared,
): Promise<PresignedPut & { key: string }> {
  const uploadKey = `${INCOMING_PREFIX}${input.key}`;
  await deps.db.insert(storageUploads).values({
    key: uploadKey,
    ownerGuid: input.ownerGuid,
    purpose: input.purpose,
    multipartUploadId: input.multipartUploadId ?? null,
    contentType: input.contentType,
    maxBytes: input.maxBytes,
    declaredSize: input.declaredSize ?? null,
    checksum: input.checksum ?? null,
    fileName: input.fileName ?? null,
    expiresAt: new Date(nowOf(deps).getTime() + UPLOAD_URL_TTL_S * 1000),
  });
  const put = await deps.storage.presignPut(uploadKey, { contentType: input.contentType, maxBytes: input.maxBytes, expiresInSeconds: UPLOAD_URL_TTL_S });
  return { ...put, key: uploadKey };
}

/**
 * Starts a multipart upload of a new object whose lasting key will be `key`, recorded like a
 * single upload (its parts meet the same seal); answers the upload key and the upload id.
 */
export async function issueMultipartUpload(
  deps: UploadDeps,
  input: { ownerGuid: string; purpose: UploadPurpose; key: string; contentType: string; maxBytes: number; partSize: number; scan?: ByteScan } & Declared,
): Promise<UploadRow> {
  const uploadKey = `${INCOMING_PREFIX}${input.key}`;
  const uploadId = await deps.storage.createMultipart(uploadKey, { contentType: input.contentType, partSize: input.partSize, ...(input.scan ? { scan: input.scan } : {}) });
  try {
    const [row] = await deps.db
      .insert(storageUploads)
      .values({
        key: uploadKey,
        ownerGuid: input.ownerGuid,
        purpose: input.purpose,
        multipartUploadId: uploadId,
        contentType: input.contentType,
        maxBytes: input.maxBytes,
        partSize: input.partSize,
        declaredSize: input.declaredSize ?? null,
        checksum: input.checksum ?? null,
        fileName: input.fileName ?? null,
        expiresAt: new Date(nowOf(deps).getTime() + PART_URL_TTL_S * 1000),
      })
      .returning();
    if (!row) throw new Error('upload not recorded');
    return row;
  } catch (err) {
    await deps.storage.abortMultipart(uploadKey, uploadId);
    throw err;
  }
}

/**
 * Signed PUT addresses for parts of an open multipart upload; the upload's record lives on as
 * long as its newest part address (housekeeping counts from there).
 */
export async function signParts(deps: UploadDeps, row: UploadRow, parts: { partNumber: number; bytes: number }[]) {
  const expiresAt = new Date(nowOf(deps).getTime() + PART_URL_TTL_S * 1000);
  if (expiresAt > row.expiresAt) await deps.db.update(storageUploads).set({ expiresAt }).where(eq(storageUploads.key, row.key));
  return Promise.all(
    parts.map(async ({ partNumber, bytes }) => ({
      partNumber,
      signedUrl: await deps.storage.presignPart(row.key, row.multipartUploadId ?? '', partNumber, { maxBytes: bytes, expiresInSeconds: PART_URL_TTL_S }),
    })),
  );
}

/** The open (unconfirmed) multipart upload of an owner by its id, or null. */
export async function openMultipartUpload(deps: Pick<ServerDeps, 'db'>, input: { uploadId: string; ownerGuid: string; purpose: UploadPurpose }): Promise<UploadRow | null> {
  const [row] = await deps.db
    .select()
    .from(storageUploads)
    .where(and(eq(storageUploads.multipartUploadId, input.uploadId), eq(storageUploads.ownerGuid, input.ownerGuid), eq(storageUploads.purpose, input.purpose)));
  return row ?? null;
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
  const [row] = await deps.db.select().from(storageUploads).where(eq(storageUploads.key, uploadKey));
  await deps.storage.remove(sealedKeyOf(uploadKey));
  await removeUploadObjects(deps, row ?? { key: uploadKey, multipartUploadId: null });
  await deps.db.delete(storageUploads).where(eq(storageUploads.key, uploadKey));
}

/** Whatever sits at an upload key: the object, a late write, and the parts of a multipart upload. */
async function removeUploadObjects(deps: Pick<ServerDeps, 'storage'>, row: Pick<UploadRow, 'key' | 'multipartUploadId'>): Promise<void> {
  if (row.multipartUploadId) await deps.storage.abortMultipart(row.key, row.multipartUploadId);
  await deps.storage.remove(row.key);
}

/**
 * Housekeeping: uploads whose address has expired (plus a grace for a PUT still arriving) lose
 * their record and whatever sits at their upload key: the file of an upload never confirmed, or
 * a late write after a confirmed one was moved away. Confirmed objects are never touched.
 * Answers how many records were removed.
 */
export async function purgeExpiredUploads(deps: { db: Db; storage: Storage; now?: () => Date; log?: Pick<FastifyBaseLogger, 'warn'> | undefined }): Promise<number> {
  const now = nowOf(deps).getTime();
  const single = and(isNull(storageUploads.multipartUploadId), lt(storageUploads.expiresAt, new Date(now - UPLOAD_REMOVAL_GRACE_MS)));
  const multipart = and(isNotNull(storageUploads.multipartUploadId), lt(storageUploads.expiresAt, new Date(now - MULTIPART_REMOVAL_GRACE_MS)));
  const rows = await deps.db
    .select({ key: storageUploads.key, multipartUploadId: storageUploads.multipartUploadId })
    .from(storageUploads)
    .where(or(single, multipart))
    .limit(PURGE_BATCH);
  let removed = 0;
  for (const row of rows) {
    try {
      await removeUploadObjects(deps, row);
    } catch (err) {
      // The store is unreachable for this one: its record stays, and the next run tries again.
      deps.log?.warn({ err, key: row.key }, 'an abandoned upload could not be removed; tried again next time');
      continue;
    }
    await deps.db.delete(storageUploads).where(eq(storageUploads.key, row.key));
    removed += 1;
  }
  return removed;
}

/**
 * Housekeeping: the store's unfinished multipart uploads older than ABANDONED_MULTIPART_AGE_MS
 * that no upload record owns are aborted, so their parts stop taking room (and, on S3, costing).
 * A store that cannot list them is left to its lifecycle rule (AbortIncompleteMultipartUpload).
 * Answers how many were aborted.
 */
export async function abortAbandonedMultipart(deps: { db: Db; storage: Storage; now?: () => Date; log?: Pick<FastifyBaseLogger, 'warn'> | undefined }): Promise<number> {
  if (!deps.storage.multipartStartedBefore) return 0;
  const old = await deps.storage.multipartStartedBefore(new Date(nowOf(deps).getTime() - ABANDONED_MULTIPART_AGE_MS));
  let aborted = 0;
  for (let i = 0; i < old.length && aborted < PURGE_BATCH; i += PURGE_BATCH) {
    const batch = old.slice(i, i + PURGE_BATCH);
    const ids = batch.map((upload) => upload.uploadId);
    const owned = await deps.db.select({ uploadId: storageUploads.multipartUploadId }).from(storageUploads).where(inArray(storageUploads.multipartUploadId, ids));
    const ownedIds = new Set(owned.map((row) => row.uploadId));
    for (const upload of batch.filter((u) => !ownedIds.has(u.uploadId))) {
      try {
        await deps.storage.abortMultipart(upload.key, upload.uploadId);
        aborted += 1;
      } catch (err) {
        deps.log?.warn({ err, key: upload.key }, 'an abandoned multipart upload could not be aborted; tried again next time');
      }
    }
  }
  return aborted;
}
