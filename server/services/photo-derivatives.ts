import { and, eq, isNull, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import sharp, { type Sharp } from 'sharp';
import { labOrders, photographs } from '../db/schema.ts';
import type { Jobs } from '../adapters/jobs/jobs.ts';
import type { ServerDeps } from '../deps.ts';
import { MAX_IMAGE_PIXELS } from './file-checks.ts';

/**
 * The background job that makes each photo's screen-size preview and thumbnail (docs/architecture.md §2,
 * §6a): EXIF orientation applied, colours converted to sRGB with the sRGB profile attached (what
 * browsers show right), JPEG. Read from a file, never from a buffer of the whole original.
 */

export const PHOTO_DERIVATIVES_QUEUE = 'photo-derivatives';

// The builder and the order detail show a photo at most about a screen wide; 2048 px covers a
// 4K display at half size and a laptop's retina screen at full size.
export const PREVIEW_PX = 2048;
// Thumbnails in the upload grid and the builder's strip are about 200 CSS px: 400 px is sharp on
// a retina screen.
export const THUMBNAIL_PX = 400;
// Prints are judged on the original; the preview only has to look right on a screen.
const PREVIEW_QUALITY = 85;
const THUMBNAIL_QUALITY = 80;
// PNGs with transparency are printed on white paper: shown on white.
const PAPER_WHITE = '#ffffff';

// A photo still without derivatives this long after they were asked for lost its job (the queue
// was down, or every retry failed): housekeeping asks again. Longer than a big batch's backlog.
const DERIVATIVES_OVERDUE_MS = 15 * 60 * 1000;
// Photos queued again per housekeeping run, so one run stays short.
const SWEEP_BATCH = 200;

/**
 * An image as the app shows it on a screen: at most `px` on its longer side (never enlarged),
 * transparency on paper white, sRGB with the profile attached, JPEG.
 */
export const screenJpeg = (image: Sharp, px: number, quality: number): Promise<Buffer> =>
  image.resize(px, px, { fit: 'inside', withoutEnlargement: true }).flatten({ background: PAPER_WHITE }).withIccProfile('srgb').jpeg({ quality }).toBuffer();

const derivativeKey = (orderGuid: string, kind: 'previews' | 'thumbnails', photoGuid: string) => `photos/${orderGuid}/${kind}/${photoGuid}.jpg`;

/**
 * Makes and records the preview and thumbnail of one photo; nothing to do when they exist. While
 * photos are arriving they are made one at a time, in the order asked (upload-activity.ts).
 */
export async function makeDerivatives(deps: Pick<ServerDeps, 'db' | 'storage' | 'uploadActivity'>, job: { photoGuid: string }, log?: Pick<FastifyBaseLogger, 'warn'>): Promise<void> {
  const make = () => makeNow(deps, job, log);
  await (deps.uploadActivity ? deps.uploadActivity.turn(make) : make());
}

async function makeNow(deps: Pick<ServerDeps, 'db' | 'storage'>, job: { photoGuid: string }, log?: Pick<FastifyBaseLogger, 'warn'>): Promise<void> {
  // Read when its turn has come: the photo may be gone, or done by another process meanwhile.
  const [row] = await deps.db
    .select({ photo: photographs, orderGuid: labOrders.guid })
    .from(photographs)
    .innerJoin(labOrders, eq(labOrders.id, photographs.labOrderId))
    .where(eq(photographs.guid, job.photoGuid));
  if (!row || (row.photo.previewKey && row.photo.thumbnailKey) || row.photo.unreadableReason) return;
  const { photo, orderGuid } = row;

  const copy = await deps.storage.localCopy(photo.key);
  let preview: Buffer;
  try {
    // JPEGs shrink while they are decoded, and libvips reads the file in one pass: memory stays
    // far below the size of the decoded original.
    preview = await screenJpeg(sharp(copy.path, { limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true }).rotate(), PREVIEW_PX, PREVIEW_QUALITY);
  } catch (err) {
    // The file is there (localCopy found it) and sharp cannot decode it: its image data is
    // damaged past its header and end marker, which the upload's checks read. That never
    // changes, so it is recorded for the photographer instead of retried (and swept) for ever.
    await markUnreadable(deps, photo, err, log);
    return;
  } finally {
    await copy.release();
  }
  // From the preview, already upright and in sRGB: the original is decoded once.
  const thumbnail = await sharp(preview)
    .resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true })
    .withIccProfile('srgb')
    .jpeg({ quality: THUMBNAIL_QUALITY })
    .toBuffer();

  const previewKey = derivativeKey(orderGuid, 'previews', photo.guid);
  const thumbnailKey = derivativeKey(orderGuid, 'thumbnails', photo.guid);
  await deps.storage.put(previewKey, preview, 'image/jpeg');
  await deps.storage.put(thumbnailKey, thumbnail, 'image/jpeg');
  await deps.db.update(photographs).set({ previewKey, thumbnailKey }).where(eq(photographs.id, photo.id));
}

/** The reason shown to the photographer for a photo the lab cannot decode. */
export const unreadableReason = (fileName: string) =>
  `${fileName} could not be read: its image data is damaged, so the lab cannot print it. Please export it again and upload it again.`;

async function markUnreadable(deps: Pick<ServerDeps, 'db'>, photo: typeof photographs.$inferSelect, err: unknown, log?: Pick<FastifyBaseLogger, 'warn'>): Promise<void> {
  log?.warn({ err, photo: photo.guid }, 'photo could not be decoded; marked unreadable, not retried');
  await deps.db.update(photographs).set({ unreadableReason: unreadableReason(photo.fileName) }).where(eq(photographs.id, photo.id));
}

/**
 * Housekeeping: photos whose preview and thumbnail have not come long after they were asked for
 * (the queue was down, or every retry failed) are asked for again, each at most once per
 * DERIVATIVES_OVERDUE_MS however often housekeeping runs; answers how many.
 */
export async function queueMissingDerivatives(deps: Pick<ServerDeps, 'db' | 'now'> & { jobs: Pick<Jobs, 'send'> }): Promise<number> {
  const now = deps.now?.() ?? new Date();
  const overdue = and(isNull(photographs.thumbnailKey), isNull(photographs.unreadableReason), lt(photographs.derivativesRequestedAt, new Date(now.getTime() - DERIVATIVES_OVERDUE_MS)));
  const rows = await deps.db.select({ id: photographs.id, guid: photographs.guid }).from(photographs).where(overdue).limit(SWEEP_BATCH);
  let asked = 0;
  for (const row of rows) {
    // Claimed first, so two processes sweeping at once do not both ask.
    const claimed = await deps.db
      .update(photographs)
      .set({ derivativesRequestedAt: now })
      .where(and(eq(photographs.id, row.id), overdue))
      .returning({ id: photographs.id });
    if (!claimed.length) continue;
    await deps.jobs.send(PHOTO_DERIVATIVES_QUEUE, { photoGuid: row.guid });
    asked += 1;
  }
  return asked;
}
