import { createHmac, randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { toDollars } from '../../src/domain/money.ts';
import type { PartnerEventType } from '../../src/domain/partner-webhooks.ts';
import type { JobAttempt, RetryPolicy } from '../adapters/jobs/jobs.ts';
import type { Tx } from '../db/client.ts';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import type { OrderRow } from './order-access.ts';
import { shippingMethod } from '../../src/domain/shipping-speeds.ts';
import { postToCheckedAddress } from './webhook-post.ts';
import { webhookSigningSecret } from './webhook-secrets.ts';
import { checkWebhookTarget, resolveWithDns, type ResolveHost } from './webhook-url.ts';

/**
 * Partner webhooks' sending side (issue 34): an order's status change writes one delivery per
 * webhook of its photographer in the change's own transaction (an outbox: no event without its
 * change, no change without its event); after the commit a pg-boss job per delivery POSTs it,
 * signed as Standard Webhooks sign (docs/api.md, "Partner webhooks"), and retries with backoff.
 */

export const WEBHOOK_QUEUE = 'partner-webhook';
// A partner's server that is down for a deploy or an hour's outage still gets the event: tries
// after 10, 20, 40 … 1,280 s (about 42 minutes in all); after that the partner's RESEND.
export const WEBHOOK_RETRY: RetryPolicy = { retryLimit: 8, retryDelay: 10, retryBackoff: true };
// A pending delivery with no try for this long has no job left (the whole retry span is shorter):
// the process that claimed it died before sending its job.
const ORPHANED_AFTER_MS = 60 * 60_000;
// A receiver answers an event in seconds; a hung connection must not hold the worker.
const DELIVERY_TIMEOUT_MS = 10_000;
// Enough of the receiver's answer to see why it refused, not a page of HTML.
const ANSWER_KEPT = 300;

type Deps = Pick<ServerDeps, 'db' | 'jobs' | 'config'> & { now?: (() => Date) | undefined };
/** A delivery's needs: the key of the sealed secrets, and the resolver of the partner's name (DNS unless a test's). */
type DeliveryDeps = Deps & Pick<ServerDeps, 'webhookSecrets'> & { resolveHost?: ResolveHost | undefined };

/** The order as the partner sees it in every event. */
function orderPart(order: OrderRow) {
  return {
    guid: order.guid,
    order_name: order.orderName,
    status: order.status,
    total: toDollars(order.totalCents),
    paid_at: order.paidAt?.toISOString() ?? null,
    shipped_at: order.shippedAt?.toISOString() ?? null,
    shipping_method: shippingMethod(order.localPickup, order.shippingSpeed),
    tracking_url: order.trackingUrl,
    promised_ship_date: order.promisedShipDate,
  };
}

/**
 * In the change's transaction: the event, once per live webhook of the order's photographer.
 * `order` is the row as the change left it. True when a delivery was written: only then has the
 * change anything for kickDeliveries to send.
 */
export async function queuePartnerEvent(
  tx: Tx,
  order: OrderRow,
  type: PartnerEventType,
  refund?: { cents: number; note: string | null },
  delay?: { old_ship_by: string | null; new_ship_by: string; reason: string },
): Promise<boolean> {
  const targets = await tx
    .select({ guid: webhookEndpoints.guid })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userGuid, order.userGuid), isNull(webhookEndpoints.removedAt)));
  if (targets.length === 0) return false;
  const eventId = randomUUID();
  const payload = {
    id: eventId,
    type,
    created_at: new Date().toISOString(),
    data: { order: orderPart(order), ...(refund ? { refund: { amount: toDollars(refund.cents), note: refund.note } } : {}), ...(delay ? { delay } : {}) },
  };
  await tx.insert(webhookDeliveries).values(targets.map((t) => ({ endpointGuid: t.guid, eventId, eventType: type, orderGuid: order.guid, payload })));
  return true;
}

/**
 * After a commit: a job for every delivery waiting for one. Each row is claimed by one UPDATE, so
 * two processes never queue the same delivery twice.
 */
export async function sendWaitingDeliveries(deps: Deps): Promise<void> {
  const now = deps.now?.() ?? new Date();
  const claimed = await deps.db
    .update(webhookDeliveries)
    .set({ queuedAt: now })
    .where(
      and(
        eq(webhookDeliveries.state, 'pending'),
        or(
          isNull(webhookDeliveries.queuedAt),
          and(lt(webhookDeliveries.queuedAt, new Date(now.getTime() - ORPHANED_AFTER_MS)), or(isNull(webhookDeliveries.lastAttemptAt), lt(webhookDeliveries.lastAttemptAt, new Date(now.getTime() - ORPHANED_AFTER_MS)))),
        ),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  for (const { id } of claimed) await deps.jobs.send(WEBHOOK_QUEUE, { deliveryId: id } satisfies WebhookJob, WEBHOOK_RETRY);
}

/**
 * After a request's commit: the same, without failing the request whose change is already made
 * (a job that could not be queued now is queued by the minute's housekeeping).
 */
export async function kickDeliveries(deps: Deps & Pick<ServerDeps, 'log'>): Promise<void> {
  await sendWaitingDeliveries(deps).catch((err: unknown) => deps.log?.error({ err }, 'webhook deliveries not queued; housekeeping will'));
}

export interface WebhookJob {
  deliveryId: number;
}

/**
 * Standard Webhooks' signature: HMAC-SHA256 over `id.timestamp.body` with the secret's bytes,
 * base64, as `v1,<signature>`. The timestamp lets the receiver refuse a replay.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** One try of one delivery; anything but a 2xx throws, and pg-boss tries again after the backoff. */
export async function deliverWebhook(deps: DeliveryDeps, job: WebhookJob, attempt: JobAttempt): Promise<void> {
  const [row] = await deps.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.guid, webhookDeliveries.endpointGuid))
    .where(eq(webhookDeliveries.id, job.deliveryId));
  if (!row || row.delivery.state !== 'pending') return;
  if (row.endpoint.removedAt) {
    await deps.db.update(webhookDeliveries).set({ state: 'dropped' }).where(eq(webhookDeliveries.id, job.deliveryId));
    return;
  }
  // A secret that does not open (WEBHOOK_SECRET_KEY changed) is a failed try the partner's log
  // explains, as an unreachable URL is.
  const secret = await webhookSigningSecret(deps.db, deps.webhookSecrets, row.endpoint).catch((err: unknown) => new Error(`Not sent: the lab cannot open this webhook's signing secret. ${String(err instanceof Error ? err.message : err)}`));
  const { statusCode, answer } =
    secret instanceof Error ? { statusCode: null, answer: secret.message.slice(0, ANSWER_KEPT) } : await post(deps, row.endpoint.url, secret, row.delivery.eventId, JSON.stringify(row.delivery.payload));
  const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const last = attempt.retryCount >= attempt.retryLimit;
  const now = deps.now?.() ?? new Date();
  await deps.db
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastStatusCode: statusCode,
      lastAnswer: answer,
      lastAttemptAt: now,
      ...(ok ? { state: 'delivered', deliveredAt: now } : last ? { state: 'failed' } : {}),
    })
    .where(and(eq(webhookDeliveries.id, job.deliveryId), eq(webhookDeliveries.state, 'pending')));
  if (!ok) throw new Error(`webhook delivery ${row.delivery.guid}: ${statusCode === null ? answer : `HTTP ${statusCode}`}`);
}

async function post(deps: DeliveryDeps, url: string, secret: string, eventId: string, body: string): Promise<{ statusCode: number | null; answer: string }> {
  const target = await checkWebhookTarget(url, deps.config.production, deps.resolveHost ?? resolveWithDns);
  if ('refused' in target) return { statusCode: null, answer: target.refused };
  const timestamp = Math.floor((deps.now?.() ?? new Date()).getTime() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'print-lab-webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, eventId, timestamp, body),
  };
  try {
    // Never follows a redirect: that would send the signed event somewhere the partner did not register.
    const { statusCode, answer } = await postToCheckedAddress(target, headers, body, { timeoutMs: DELIVERY_TIMEOUT_MS, answerBytes: ANSWER_KEPT * 4 });
    return { statusCode, answer: answer.slice(0, ANSWER_KEPT) };
  } catch (err) {
    return { statusCode: null, answer: `Could not be reached: ${err instanceof Error ? err.message : String(err)}`.slice(0, ANSWER_KEPT) };
  }
}
