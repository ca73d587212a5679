import { and, eq, isNull, lt } from 'drizzle-orm';
import sharp from 'sharp';
import { cropPixels } from '../../src/domain/crop.ts';
import { labOrders, lineItems, photographs } from '../db/schema.ts';
import type { Jobs } from '../adapters/jobs/jobs.ts';
import type { ServerDeps } from '../deps.ts';
import { MAX_IMAGE_PIXELS } from './file-checks.ts';
import { PREVIEW_PX, screenJpeg } from './photo-derivatives.ts';

/**
 * The cropped image of a line item (docs/orders.md §2 Cart review, Cart preview): a background job
 * cuts the stored crop out of the original with sharp and records it; the line item's
 * photograph_cropped_url then names it (its address contains 'cropped', which the review checks).
 */

export const LINE_ITEM_CROP_QUEUE = 'line-item-cropped-image';

// The review and the cart preview draw the crop at most about a screen wide: the preview's bound.
const CROPPED_PX = PREVIEW_PX;
const CROPPED_QUALITY = 85;
// A line item still without its cropped image this long after it was asked for lost its job (the
// queue was down, or every retry failed): housekeeping asks again. As for photo derivatives.
const CROPPED_OVERDUE_MS = 15 * 60 * 1000;
// Line items queued again per housekeeping run, so one run stays short.
const SWEEP_BATCH = 200;

export interface CropJob {
  lineItemGuid: string;
  /** The crop the job was asked for: a job for an older crop writes nothing. */
  cropVersion: number;
}

const croppedKey = (orderGuid: string, job: CropJob) => `photos/${orderGuid}/cropped/${job.lineItemGuid}-${job.cropVersion}.jpg`;

/** Asks for the cropped images; a queue that cannot take them does not undo the change (the review shows the photo meanwhile). */
export async function queueCroppedImages(deps: Pick<ServerDeps, 'jobs' | 'log'>, items: { guid: string; cropVersion: number }[]): Promise<void> {
  for (const item of items) {
    try {
      await deps.jobs.send(LINE_ITEM_CROP_QUEUE, { lineItemGuid: item.guid, cropVersion: item.cropVersion } satisfies CropJob);
    } catch (err) {
      deps.log?.warn({ err, lineItem: item.guid }, 'cropped image could not be queued');
    }
  }
}

/** Removes a cropped image no line item names any more; storage trouble is only logged. */
export async function removeCroppedImage(deps: Pick<ServerDeps, 'storage' | 'log'>, key: string): Promise<void> {
  try {
    await deps.storage.remove(key);
  } catch (err) {
    deps.log?.warn({ err, key }, 'old cropped image not removed');
  }
}

/** Makes and records the cropped image of one line item's current crop; nothing to do when it exists or the crop moved on. */
export async function makeCroppedImage(deps: Pick<ServerDeps, 'db' | 'storage' | 'log'>, job: CropJob): Promise<void> {
  const [row] = await deps.db
    .select({ item: lineItems, photo: photographs, orderGuid: labOrders.guid })
    .from(lineItems)
    .innerJoin(photographs, eq(photographs.id, lineItems.photographId))
    .innerJoin(labOrders, eq(labOrders.id, lineItems.labOrderId))
    .where(eq(lineItems.guid, job.lineItemGuid));
  if (!row || row.item.cropVersion !== job.cropVersion || row.item.croppedKey) return;
  const { item, photo, orderGuid } = row;
  // The crop is in percent of the photo as it is seen, so the EXIF orientation is applied first.
  const area = cropPixels({ width: photo.width, height: photo.height }, { x: item.cropX, y: item.cropY, width: item.cropW, height: item.cropH });
  const copy = await deps.storage.localCopy(photo.key);
  let image: Buffer;
  try {
    image = await screenJpeg(sharp(copy.path, { limitInputPixels: MAX_IMAGE_PIXELS }).autoOrient().extract(area), CROPPED_PX, CROPPED_QUALITY);
  } finally {
    await copy.release();
  }
  const key = croppedKey(orderGuid, job);
  await deps.storage.put(key, image, 'image/jpeg');
  const recorded = await deps.db
    .update(lineItems)
    .set({ croppedKey: key })
    .where(and(eq(lineItems.id, item.id), eq(lineItems.cropVersion, job.cropVersion)))
    .returning({ id: lineItems.id });
  // The crop changed while the image was made: the job for the new crop makes its own.
  if (!recorded.length) await removeCroppedImage(deps, key);
}

/**
 * Housekeeping: line items whose cropped image has not come long after it was asked for are
 * asked for again, each at most once per CROPPED_OVERDUE_MS however often housekeeping runs;
 * answers how many.
 */
export async function queueMissingCroppedImages(deps: Pick<ServerDeps, 'db' | 'now'> & { jobs: Pick<Jobs, 'send'> }): Promise<number> {
  const now = deps.now?.() ?? new Date();
  const overdue = and(isNull(lineItems.croppedKey), lt(lineItems.cropRequestedAt, new Date(now.getTime() - CROPPED_OVERDUE_MS)));
  const rows = await deps.db.select({ id: lineItems.id, guid: lineItems.guid }).from(lineItems).where(overdue).limit(SWEEP_BATCH);
  let asked = 0;
  for (const row of rows) {
    // Claimed first, so two processes sweeping at once do not both ask.
    const [claimed] = await deps.db
      .update(lineItems)
      .set({ cropRequestedAt: now })
      .where(and(eq(lineItems.id, row.id), overdue))
      .returning({ guid: lineItems.guid, cropVersion: lineItems.cropVersion });
    if (!claimed) continue;
    await deps.jobs.send(LINE_ITEM_CROP_QUEUE, { lineItemGuid: claimed.guid, cropVersion: claimed.cropVersion } satisfies CropJob);
    asked += 1;
  }
  return asked;
}
