import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { TOO_MANY_WEBHOOKS, WEBHOOK_URL_RULE, WEBHOOKS_PER_ACCOUNT, type PartnerEventType } from '../../src/domain/partner-webhooks.ts';
import { users, webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, unauthorized, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { kickDeliveries } from './partner-events.ts';
import { webhookUrl } from './webhook-url.ts';
import { sealWebhookSecret } from './webhook-secrets.ts';

/**
 * The partner's side of webhooks on /account (issue 34): each signed-in account registers,
 * lists and removes its own webhooks and reads their deliveries. Another account's webhook or
 * delivery is "does not exist" (404), as every other thing of another photographer is.
 */

// The deliveries the account page shows per webhook: the recent past, not an archive.
const DELIVERIES_SHOWN = 50;
// Characters of the secret shown after registration, to tell two secrets apart.
const HINT_LENGTH = 4;

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
// The states the delivery log shows (server/db/schema/webhooks.ts).
type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

const webhookAnswer = (row: EndpointRow) => ({
  guid: row.guid,
  url: row.url,
  created_at: row.createdAt.toISOString(),
  secret_hint: `whsec_…${row.secretHint}`,
});

const deliveryAnswer = (row: DeliveryRow) => ({
  guid: row.guid,
  event_id: row.eventId,
  event_type: row.eventType as PartnerEventType,
  order_guid: row.orderGuid,
  state: row.state as DeliveryState,
  attempts: row.attempts,
  last_status_code: row.lastStatusCode,
  last_answer: row.lastAnswer,
  created_at: row.createdAt.toISOString(),
  last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
  delivered_at: row.deliveredAt?.toISOString() ?? null,
});

function signedIn(actor: Actor | null): Actor {
  if (!actor) throw unauthorized();
  return actor;
}

const live = (userGuid: string) => and(eq(webhookEndpoints.userGuid, userGuid), isNull(webhookEndpoints.removedAt));

export async function listWebhooks(deps: ServerDeps, actor: Actor | null) {
  const me = signedIn(actor);
  const rows = await deps.db.select().from(webhookEndpoints).where(live(me.user.guid)).orderBy(webhookEndpoints.createdAt);
  return { data: rows.map(webhookAnswer) };
}

export async function registerWebhook(deps: ServerDeps, actor: Actor | null, input: { url: string }) {
  const me = signedIn(actor);
  const url = webhookUrl(input.url, deps.config.production);
  if (!url) throw validationError(WEBHOOK_URL_RULE, [`url: ${WEBHOOK_URL_RULE}`]);
  // Standard Webhooks' secret form: whsec_ and 24 random bytes in base64.
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  // The guid is chosen here: the sealed secret is bound to its row.
  const guid = randomUUID();
  const sealed = { guid, sealedSecret: sealWebhookSecret(deps.webhookSecrets, guid, secret), secretHint: secret.slice(-HINT_LENGTH) };
  const row = await deps.db.transaction(async (tx) => {
    // The count and the insert under the account's row lock: two registrations at once cannot
    // both pass the limit.
    await tx.select({ guid: users.guid }).from(users).where(eq(users.guid, me.user.guid)).for('update');
    const [counted] = await tx.select({ n: count() }).from(webhookEndpoints).where(live(me.user.guid));
    if ((counted?.n ?? 0) >= WEBHOOKS_PER_ACCOUNT) throw validationError(TOO_MANY_WEBHOOKS);
    const [inserted] = await tx.insert(webhookEndpoints).values({ userGuid: me.user.guid, url, ...sealed }).returning();
    return inserted;
  });
  if (!row) throw new Error('webhook not stored');
  return { data: { ...webhookAnswer(row), secret } };
}

async function ownWebhook(deps: ServerDeps, me: Actor, guid: string): Promise<EndpointRow> {
  const [row] = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.guid, guid), live(me.user.guid)));
  if (!row) throw notFound('This webhook does not exist.');
  return row;
}

export async function removeWebhook(deps: ServerDeps, actor: Actor | null, guid: string) {
  const me = signedIn(actor);
  const row = await ownWebhook(deps, me, guid);
  await deps.db.update(webhookEndpoints).set({ removedAt: new Date() }).where(eq(webhookEndpoints.guid, row.guid));
  return { success: true as const };
}

export async function webhookDeliveryLog(deps: ServerDeps, actor: Actor | null, guid: string) {
  const me = signedIn(actor);
  const row = await ownWebhook(deps, me, guid);
  const rows = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointGuid, row.guid))
    .orderBy(desc(webhookDeliveries.id))
    .limit(DELIVERIES_SHOWN);
  return { data: rows.map(deliveryAnswer) };
}

/** RESEND: the same event (same id) goes out again as a fresh series of tries. */
export async function resendDelivery(deps: ServerDeps, actor: Actor | null, guid: string) {
  const me = signedIn(actor);
  const [found] = await deps.db
    .select({ delivery: webhookDeliveries })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.guid, webhookDeliveries.endpointGuid))
    .where(and(eq(webhookDeliveries.guid, guid), live(me.user.guid)));
  if (!found) throw notFound('This delivery does not exist.');
  const [row] = await deps.db
    .update(webhookDeliveries)
    .set({ state: 'pending', queuedAt: null })
    .where(eq(webhookDeliveries.id, found.delivery.id))
    .returning();
  await kickDeliveries(deps);
  return { data: deliveryAnswer(row ?? found.delivery) };
}
