import { and, desc, eq, like } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { photographs, storageUploads } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, notFound, unauthorized, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { ownOrder, type OrderRow } from './order-access.ts';
import { touchOrder } from './order-service.ts';
import { checkStoredPhoto } from './photo-checks.ts';
import { PHOTO_DERIVATIVES_QUEUE } from './photo-derivatives.ts';
import { photoAnswer, type PhotoRow } from './photo-service.ts';
import { photoByChecksum, photoUploadKeyOf } from './photo-upload-service.ts';
import { INCOMING_PREFIX, discardUpload, sealUpload, sealedKeyOf, type UploadRow } from './upload-service.ts';

/**
 * photograph_uploaded (docs/upload-and-sync.md §1): the upload is sealed (its addresses stop
 * working) and moved out of their reach, then checked; a refused photo is removed at once, an
 * accepted one joins the order and its preview and thumbnail are queued. The same bytes already
 * in the order are answered with that photo and stored once.
 */

const UPLOAD_NOT_FOUND = 'This upload does not exist. Please upload the photo again.';

export interface PhotographUploaded {
  /** The upload's key from create_presigned_url; without it the lab finds it by the file name. */
  key?: string | undefined;
  photo_file_name: string;
  checksum?: string | undefined;
  size?: number | undefined;
}

type Answer = { status: 200 | 201; body: { data: Awaited<ReturnType<typeof photoAnswer>> } };

export async function confirmPhotograph(deps: ServerDeps, actor: Actor | null, orderGuid: string, input: PhotographUploaded, log?: FastifyBaseLogger): Promise<Answer> {
  if (!actor) throw unauthorized();
  const order = await ownOrder(deps, actor, orderGuid, { open: true });
  // Still receiving photos: previews leave a core to the upload (upload-activity.ts).
  deps.uploadActivity?.touch(order.guid);
  const key = input.key ?? (await uploadKeyByFileName(deps, actor.user.guid, order.guid, input.photo_file_name));
  if (!photoUploadKeyOf(order.guid).test(key)) throw notFound(UPLOAD_NOT_FOUND);
  const mine = and(eq(storageUploads.key, key), eq(storageUploads.ownerGuid, actor.user.guid), eq(storageUploads.purpose, 'photo'));
  const [upload] = await deps.db.select().from(storageUploads).where(mine);
  if (!upload) throw notFound(UPLOAD_NOT_FOUND);
  if (!upload.confirmedAt && !(await deps.storage.head(key))) {
    throw new HttpError(409, 'UploadIncomplete', `${input.photo_file_name} has not been uploaded completely yet. Send it (and finish its parts with complete_upload) first.`);
  }

  const sealed = await sealUpload(deps, { key, ownerGuid: actor.user.guid, purpose: 'photo' });
  if (sealed.again) return confirmedBefore(deps, order, upload, input.checksum?.toLowerCase());

  const name = input.photo_file_name;
  const verdict = await checkStoredPhoto(deps.storage, sealed.key, {
    fileName: name,
    sizes: [upload.declaredSize, input.size].filter((n): n is number => typeof n === 'number'),
    checksums: [upload.checksum, input.checksum?.toLowerCase()].filter((c): c is string => Boolean(c)),
  });
  if (!verdict.ok) {
    await discardUpload(deps, key);
    throw validationError(verdict.reason);
  }

  const [photo] = await deps.db
    .insert(photographs)
    .values({
      labOrderId: order.id,
      fileName: name,
      key: sealed.key,
      size: verdict.size,
      checksum: verdict.checksum,
      contentType: verdict.contentType,
      width: verdict.width,
      height: verdict.height,
    })
    .onConflictDoNothing({ target: [photographs.labOrderId, photographs.checksum] })
    .returning();
  if (!photo) {
    // The same bytes joined the order meanwhile (another upload of the same file): kept once.
    await deps.storage.remove(sealed.key);
    return existing(deps, await photoByChecksum(deps, order.id, verdict.checksum));
  }
  await touchOrder(deps, order.id);
  await queueDerivatives(deps, photo, log);
  return { status: 201, body: { data: await photoAnswer(deps, photo) } };
}

/**
 * The upload a confirmation by file name alone (docs/orders.md §7) means: of this owner's uploads of
 * that name to the order, the newest whose file has arrived; else one confirmed before (a retried
 * confirmation); else the newest still arriving, which the caller is told to finish first.
 */
async function uploadKeyByFileName(deps: ServerDeps, ownerGuid: string, orderGuid: string, fileName: string): Promise<string> {
  const rows = await deps.db
    .select({ key: storageUploads.key, confirmedAt: storageUploads.confirmedAt })
    .from(storageUploads)
    .where(
      and(
        eq(storageUploads.ownerGuid, ownerGuid),
        eq(storageUploads.purpose, 'photo'),
        eq(storageUploads.fileName, fileName),
        like(storageUploads.key, `${INCOMING_PREFIX}photos/${orderGuid}/%`),
      ),
    )
    .orderBy(desc(storageUploads.createdAt));
  const open = rows.filter((row) => !row.confirmedAt);
  for (const row of open) if (await deps.storage.head(row.key)) return row.key;
  const confirmed = rows.find((row) => row.confirmedAt);
  if (confirmed) return confirmed.key;
  if (open[0]) return open[0].key;
  throw notFound(`No upload of ${fileName} was started for this order. Ask for its upload address (create_presigned_url) and send it first.`);
}

/**
 * A confirmation sent again (its answer was lost): the photo it made, or the one it duplicated,
 * found by the checksum the upload was started with or, for one started without, the one confirmed.
 */
async function confirmedBefore(deps: ServerDeps, order: OrderRow, upload: UploadRow, confirmed: string | undefined): Promise<Answer> {
  const [byKey] = await deps.db
    .select()
    .from(photographs)
    .where(and(eq(photographs.labOrderId, order.id), eq(photographs.key, sealedKeyOf(upload.key))));
  const checksum = upload.checksum ?? confirmed;
  return existing(deps, byKey ?? (checksum ? await photoByChecksum(deps, order.id, checksum) : null));
}

async function existing(deps: ServerDeps, photo: PhotoRow | null): Promise<Answer> {
  if (!photo) throw notFound(UPLOAD_NOT_FOUND);
  return { status: 200, body: { data: await photoAnswer(deps, photo) } };
}

/**
 * The preview and thumbnail are made in the background (docs/performance-notes.md §8). A queue that cannot take
 * the job does not undo the accepted photo: until they exist, the photo's addresses show the original.
 */
async function queueDerivatives(deps: ServerDeps, photo: PhotoRow, log?: FastifyBaseLogger): Promise<void> {
  try {
    await deps.jobs.send(PHOTO_DERIVATIVES_QUEUE, { photoGuid: photo.guid });
  } catch (err) {
    log?.warn({ err, photo: photo.guid }, 'photo derivatives could not be queued');
  }
}
