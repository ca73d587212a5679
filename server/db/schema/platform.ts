import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** Answers to mutating calls, keyed by the caller's Idempotency-Key, replayed on a retry. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_created_idx').on(t.createdAt)],
);

/** Small server-wide values that must survive restarts (the signing secret). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Every mail the lab sends, kept as an outbox: written in the same request that causes it, sent
 * by the mail transport (the log by default, SMTP when configured) and retried until sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    bodyText: text('body_text').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status, t.createdAt)],
);

/**
 * Card tokens minted by the sandbox payment provider's TEST MODE card field, as Stripe.js mints
 * them at Stripe: single use, and only for Stripe's public test card numbers.
 */
export const sandboxCardTokens = pgTable('sandbox_card_tokens', {
  id: text('id').primaryKey(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expMonth: integer('exp_month').notNull(),
  expYear: integer('exp_year').notNull(),
  // 'succeeds' or 'declines': what a charge on this card will do at checkout.
  behaviour: text('behaviour').notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Rate-limit counters shared by every API process (DESIGN.md §5): one row per limited call
 * ("bucket", e.g. `POST /api/v2/login`) and caller key (the address). A window starts with the
 * first hit and lasts the call's time window; a hit after it starts a new window in the same row.
 * Expired rows are swept by the housekeeping job.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    count: integer('count').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] }), index('rate_limit_hits_window_idx').on(t.windowEndsAt)],
);
