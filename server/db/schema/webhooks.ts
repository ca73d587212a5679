import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './accounts.ts';

/**
 * A partner's webhook (issue 34): a URL a photographer or gallery partner registered on /account,
 * POSTed each status change of their orders, signed with the secret shown once at registration.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    guid: uuid('guid').primaryKey().defaultRandom(),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    // The HMAC key in plain text: only rows registered before secrets were sealed, until the
    // next start seals them (sealPlainWebhookSecrets in services/webhook-secrets.ts); null after.
    secret: text('secret'),
    // The HMAC key sealed with WEBHOOK_SECRET_KEY (AES-256-GCM): shown to the partner once, when
    // the webhook is registered, never again, and never kept readable.
    sealedSecret: text('sealed_secret'),
    // The secret's last characters, shown in the list to tell two secrets apart without the key.
    secretHint: text('secret_hint').notNull().default(''),
    createdAt: createdAt(),
    // Removed webhooks stay, so their delivery log keeps its meaning; nothing is sent to them.
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userGuid)],
);

/**
 * One event for one webhook: written in the transaction of the change it reports (an outbox), then
 * POSTed by a pg-boss job that retries with backoff. Every try's answer is kept for the partner's log.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guid: uuid('guid').notNull().unique().defaultRandom(),
    endpointGuid: uuid('endpoint_guid')
      .notNull()
      .references(() => webhookEndpoints.guid, { onDelete: 'cascade' }),
    // The event's id: the same for every webhook told of it and every try, so a receiver can drop repeats.
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    orderGuid: uuid('order_guid'),
    payload: jsonb('payload').notNull(),
    // pending (waiting or retrying), delivered, failed (every try refused), dropped (the webhook was removed)
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastAnswer: text('last_answer'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    // When a job was sent for it; null while none is (a crash between the commit and the send is
    // caught by the minute's housekeeping).
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointGuid, t.id),
    index('webhook_deliveries_unqueued_idx').on(t.id).where(sql`${t.state} = 'pending' and ${t.queuedAt} is null`),
  ],
);
