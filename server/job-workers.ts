import { sql } from 'drizzle-orm';
import type { PeriodicTask } from './adapters/jobs/jobs.ts';
import type { Db } from './db/client.ts';
import type { ServerDeps } from './deps.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import { purgeRateLimits } from './http/rate-limit-store.ts';
import { purgeExpiredSessions } from './services/auth-service.ts';
import { recoverPendingPayments } from './services/checkout-recovery.ts';
import { recoverPendingRefunds } from './services/refund-recovery.ts';
import { abortAbandonedMultipart, purgeExpiredUploads } from './services/upload-service.ts';
import { LINE_ITEM_CROP_QUEUE, makeCroppedImage, queueMissingCroppedImages, type CropJob } from './services/line-item-crop.ts';
import { PHOTO_DERIVATIVES_QUEUE, makeDerivatives, queueMissingDerivatives } from './services/photo-derivatives.ts';
import { ORDER_ZIP_QUEUE, buildZip, type ZipJob } from './services/order-zip.ts';
import { VENDOR_SEND_QUEUE, sendToVendor, type VendorJob } from './services/vendor-send.ts';
import { WEBHOOK_QUEUE, deliverWebhook, sendWaitingDeliveries, type WebhookJob } from './services/partner-events.ts';
import { noticeLateOrders } from './services/delay-notices.ts';
import { TAX_REPORT_QUEUE, markTaxReportFailed, writeTaxReport } from './services/tax-report-service.ts';

/**
 * The lab's housekeeping: once a minute for the whole lab (pg-boss's cron on PostgreSQL, a timer
 * on the embedded database; see periodicRunner in adapters/jobs/jobs.ts). A minute is how long
 * mail that could not be sent waits for its next try; the sweeps ride along, each an indexed
 * delete that finds nothing most minutes.
 */
/**
 * Preview jobs worked on at once per process when no upload is in progress: one per core of the
 * 2-core lab machine (while photos arrive, one: upload-activity.ts).
 */
const PREVIEWS_AT_ONCE = 2;

// Webhook deliveries one process makes at once: each mostly waits on a partner's server, and a
// slow partner must not hold up the others' events.
const WEBHOOKS_AT_ONCE = 4;

export const HOUSEKEEPING = { queue: 'housekeeping', cron: '* * * * *', intervalMs: 60_000 } as const;

/**
 * The embedded database's upkeep, which PostgreSQL's autovacuum does on its own and PGlite has
 * not: planner statistics at start, and hourly a VACUUM with them.
 * - Without statistics PostgreSQL guesses the tables' sizes: with 10,000 orders a photographer's
 *   first page was a bitmap scan and a sort of all their orders instead of a read of the
 *   matching index in order, several times slower.
 * - Without VACUUM the rows the minute's sweeps delete (sessions, idempotency keys, rate-limit
 *   windows) and every older version of an updated order stay on disk for good: tables and
 *   indexes only grow, and every scan reads past them. A plain VACUUM (not FULL) takes no
 *   exclusive lock and makes their space reusable; hourly it has little to do each time.
 */
export const DATABASE_STATISTICS = { queue: 'database-statistics', cron: '17 * * * *', intervalMs: 60 * 60_000 } as const;
export const gatherStatistics = async (db: Db): Promise<void> => void (await db.execute(sql`analyze`));
export const vacuumAndAnalyze = async (db: Db): Promise<void> => void (await db.execute(sql`vacuum (analyze)`));

/** Each housekeeping step, by name; one failing does not stop the others. */
export function housekeepingSteps(deps: ServerDeps): Record<string, () => Promise<unknown>> {
  const now = () => deps.now?.() ?? new Date();
  return {
    'mail retry': () => deps.mailer.sendPending(),
    'expired sessions': () => purgeExpiredSessions(deps.db, now()),
    'idempotency keys': () => purgeIdempotencyKeys(deps.db, now()),
    'rate-limit windows': () => purgeRateLimits(deps.db, now()),
    'abandoned uploads': () => purgeExpiredUploads(deps),
    'abandoned multipart uploads': () => abortAbandonedMultipart(deps),
    'missing photo derivatives': () => queueMissingDerivatives(deps),
    'missing cropped images': () => queueMissingCroppedImages(deps),
    'pending payments': () => recoverPendingPayments(deps),
    'pending refunds': () => recoverPendingRefunds(deps),
    'webhook deliveries': () => sendWaitingDeliveries(deps),
    // An indexed read of the orders past their promised day: none most minutes.
    'late orders': () => noticeLateOrders(deps),
  };
}

export async function runHousekeeping(deps: ServerDeps): Promise<void> {
  const steps = Object.entries(housekeepingSteps(deps));
  const results = await Promise.allSettled(steps.map(([, run]) => run()));
  const failed = steps.flatMap(([name], i) => {
    const r = results[i];
    return r?.status === 'rejected' ? [`${name}: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`] : [];
  });
  if (failed.length) throw new Error(`housekeeping failed (${failed.join('; ')})`);
  deps.log?.info({ steps: steps.length }, 'housekeeping done');
}

/** Every background job this process works on, and the lab's periodic work. */
export async function startJobWorkers(deps: ServerDeps): Promise<void> {
  await deps.jobs.work<{ userGuid: string; year: number }>(TAX_REPORT_QUEUE, async (data) => {
    try {
      await writeTaxReport(deps, data);
    } catch (err) {
      // Shown as failed at once (GENERATE is offered again); pg-boss still retries, and a retry
      // that succeeds marks the report ready.
      await markTaxReportFailed(deps, data);
      throw err;
    }
  });
  // A failure (storage unreachable) is retried by pg-boss; until the preview and thumbnail
  // exist, the photo's addresses show the original. A photo that cannot be decoded is marked
  // unreadable by the job itself (not retried).
  // Two at once when no photos are arriving (one at a time, a large batch's previews took about
  // twice as long on the lab's 2 cores: docs/performance-notes.md §7); one at a time while they are
  // (upload-activity.ts).
  await deps.jobs.work<{ photoGuid: string }>(PHOTO_DERIVATIVES_QUEUE, (data) => makeDerivatives(deps, data, deps.log), { concurrency: PREVIEWS_AT_ONCE });
  // Retried by pg-boss on failure; until it exists the review shows the photo itself.
  await deps.jobs.work<CropJob>(LINE_ITEM_CROP_QUEUE, (data) => makeCroppedImage(deps, data));
  // DOWNLOAD ALL: retried by pg-boss when storage fails; the link stays null until it is built.
  await deps.jobs.work<ZipJob>(ORDER_ZIP_QUEUE, (data) => buildZip(deps, data));
  // SEND TO VENDOR: retried with backoff (vendor-send.ts VENDOR_RETRY) while the vendor fails.
  await deps.jobs.work<VendorJob>(VENDOR_SEND_QUEUE, (data, attempt) => sendToVendor(deps, data, attempt));
  // Partner webhooks: a few at once, as each mostly waits for the partner's server; retried with
  // backoff (partner-events.ts WEBHOOK_RETRY).
  await deps.jobs.work<WebhookJob>(WEBHOOK_QUEUE, (data, attempt) => deliverWebhook(deps, data, attempt), { concurrency: WEBHOOKS_AT_ONCE });
  // A payment a crash left pending is settled now, not only at the next minute's housekeeping.
  await recoverPendingPayments(deps).catch((err: unknown) => deps.log?.error({ err }, 'pending payments not settled at start'));
  // So is a refund a crash left pending (refund-recovery.ts).
  await recoverPendingRefunds(deps).catch((err: unknown) => deps.log?.error({ err }, 'pending refunds not settled at start'));
  // A lab that was down over a promised day tells its photographers now, not at the next minute.
  await noticeLateOrders(deps).catch((err: unknown) => deps.log?.error({ err }, 'late orders not noticed at start'));
  const housekeeping: PeriodicTask = { ...HOUSEKEEPING, run: () => runHousekeeping(deps) };
  await deps.jobs.every(housekeeping);
  if (!deps.config.databaseUrl) {
    await gatherStatistics(deps.db);
    await deps.jobs.every({ ...DATABASE_STATISTICS, run: () => vacuumAndAnalyze(deps.db) });
  }
}
