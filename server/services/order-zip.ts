import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { and, asc, eq } from 'drizzle-orm';
import { labOrders, photographs } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import type { Actor } from './auth-service.ts';
import { visibleOrder } from './order-access.ts';
import { recordEvent } from './order-events.ts';
import { requireAdmin } from './admin-guard.ts';
import { signInWindow } from './photo-service.ts';
import { PACKING_SLIP_FILE, blindSlipShipTo, packingSlipPdf } from './packing-slip-pdf.ts';

/**
 * DOWNLOAD ALL (docs/lab-rules.md §2): a background job streams an order's originals
 * through archiver into one object in storage, a photo at a time, never the whole archive in
 * memory; the order's download_all_link signs it once ready.
 */

export const ORDER_ZIP_QUEUE = 'order-zip';
// The download link lasts long enough to fetch gigabytes over a slow line, and no longer.
const ZIP_LINK_TTL_S = 6 * 60 * 60;
// Originals open at once while the zip is built: the next few are opened while one is archived,
// so the archive never waits for a file or an S3 GET to start. All of them up front held an open
// file (or an S3 response idle until its turn, which S3 drops after a while) and its first bytes
// per photo for the whole zip; a few at a time keep the memory of a 1,000-photo zip low in about
// the same time (measured: docs/performance.md, the scale part; docs/performance-notes.md §2).
const ZIP_OPEN_AHEAD = 4;

export interface ZipJob {
  orderGuid: string;
  /** The request this job answers: a newer request's job replaces it. */
  requestedAt: string;
}

/** A signed GET link to the order's zip, named after the order; null while building or never made. */
export function zipLink(deps: Pick<ServerDeps, 'storage' | 'now'>, order: { zipKey: string | null; orderName: string }): Promise<string | null> {
  if (!order.zipKey) return Promise.resolve(null);
  // Signed in the photos' window: the admin's kept list pages hold it (list-page-cache.ts).
  return signInWindow(deps, order.zipKey, { expiresInSeconds: ZIP_LINK_TTL_S, downloadName: `${order.orderName.replace(/[^\w .-]+/g, '_')}.zip` });
}

/** POST /lab_orders/{id}/create_zip_file (admin): queues the zip; the link is null until it is built. */
export async function requestZip(deps: ServerDeps, actor: Actor | null, guid: string) {
  const admin = requireAdmin(actor);
  const { order } = await visibleOrder(deps, admin, guid);
  const requestedAt = new Date();
  await deps.db.transaction(async (tx) => {
    // The old zip goes: DOWNLOAD ALL is null until the new one is built.
    await tx.update(labOrders).set({ zipRequestedAt: requestedAt, zipKey: null }).where(eq(labOrders.id, order.id));
    await recordEvent(tx, order.id, admin.user.guid, 'zip', { detail: order.zipKey ? 'Zip re-created' : 'Zip created' });
  });
  if (order.zipKey) await deps.storage.remove(order.zipKey);
  await deps.jobs.send(ORDER_ZIP_QUEUE, { orderGuid: order.guid, requestedAt: requestedAt.toISOString() } satisfies ZipJob);
  return { success: true as const, zip_requested_at: requestedAt.toISOString() };
}

/** Names inside the zip: the photo's file name, made unique within the archive. */
function entryNames(fileNames: string[]): string[] {
  const seen = new Map<string, number>();
  return fileNames.map((raw) => {
    const name = raw.replace(/[/\\]/g, '_') || 'photo';
    const n = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), n);
    if (n === 1) return name;
    const dot = name.lastIndexOf('.');
    return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
  });
}

/**
 * The job: the originals, in upload order, stored (JPEG and PNG do not compress further); with a
 * blind slip chosen, its PDF as packing-slip.pdf (a photo of that name is numbered).
 */
export async function buildZip(deps: Pick<ServerDeps, 'db' | 'storage'>, job: ZipJob): Promise<void> {
  const [order] = await deps.db.select().from(labOrders).where(eq(labOrders.guid, job.orderGuid));
  if (!order) return; // Deleted meanwhile: nothing to build.
  const photos = await deps.db.select().from(photographs).where(eq(photographs.labOrderId, order.id)).orderBy(asc(photographs.id));
  const slipTo = await blindSlipShipTo(deps.db, order);
  const slip = slipTo ? await packingSlipPdf(deps, order, slipTo) : null;
  const key = `zips/${order.guid}/${randomUUID()}.zip`;
  // Loaded when a zip is first built, not at every start of the lab.
  const { default: archiver } = await import('archiver');
  const archive = archiver('zip', { store: true });
  const out = new PassThrough();
  archive.on('warning', (err) => out.destroy(err));
  archive.on('error', (err) => out.destroy(err));
  archive.pipe(out);
  const written = deps.storage.putStream(key, out, 'application/zip');
  // The store gave up (or ended early): no photo is opened after that.
  const storeStopped = written.then(() => {
    throw new Error('the store ended the zip before its last photo');
  });
  storeStopped.catch(() => {});
  const [, ...names] = entryNames([PACKING_SLIP_FILE, ...photos.map((p) => p.fileName)]);
  // Originals opened and queued but not yet in the archive, oldest first.
  const queued: Readable[] = [];
  archive.on('entry', () => queued.shift());
  try {
    for (const [i, photo] of photos.entries()) {
      // At most ZIP_OPEN_AHEAD photos open at a time (see there); wait for the oldest to be in.
      while (queued.length >= ZIP_OPEN_AHEAD) await Promise.race([once(archive, 'entry'), storeStopped]);
      const source = await deps.storage.stream(photo.key);
      queued.push(source);
      archive.append(source, { name: names[i] ?? photo.fileName });
    }
    // Last, so its 'entry' counts no photo as archived.
    if (slip) archive.append(slip, { name: PACKING_SLIP_FILE });
    await Promise.all([archive.finalize(), written]);
  } catch (err) {
    archive.abort();
    for (const source of queued) source.destroy();
    out.destroy(err instanceof Error ? err : new Error(String(err)));
    await written.catch(() => {});
    throw err;
  }
  const [done] = await deps.db
    .update(labOrders)
    .set({ zipKey: key, zipRequestedAt: null })
    .where(and(eq(labOrders.id, order.id), eq(labOrders.zipRequestedAt, new Date(job.requestedAt))))
    .returning({ id: labOrders.id });
  if (!done) {
    // A newer request came meanwhile: its job makes the zip that counts.
    await deps.storage.remove(key);
    return;
  }
  await recordEvent(deps.db, order.id, null, 'zip', { detail: `Zip ready: ${photos.length} photos` });
}
