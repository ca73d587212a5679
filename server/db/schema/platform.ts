import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** Answers to mutating calls, keyed by the caller's Idempotency-Key, replayed on a retry. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    // The session that made the call: the answer of a change made is replayed to that session only
    // (it may speak for one session, and must not vouch for another of the same user); a stored
    // refusal, which says nothing of a session, is replayed to any session of the user.
    sessionId: uuid('session_id'),
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
 * Every signed upload address the API has issued (docs/lab-rules.md §5): an address is good for one
 * object that has not been confirmed yet. Confirming seals the row (a PUT to the key is refused)
 * and moves the object out of reach of every signed address; refused files are removed at once,
 * and housekeeping removes what was never confirmed once the address has expired. Multipart
 * uploads (photos) record their upload id here too, so every part PUT meets the same seal.
 */
export const storageUploads = pgTable(
  'storage_uploads',
  {
    // The key the signed address writes to (under incoming/); the confirmed object lives elsewhere.
    key: text('key').primaryKey(),
    // The user the address was issued to. No foreign key: the row must outlive a deleted user so
    // housekeeping still finds and removes the file.
    ownerGuid: uuid('owner_guid').notNull(),
    // What the upload is for ('certificate', 'photo'): a confirmation only accepts its own kind.
    purpose: text('purpose').notNull(),
    // The S3-style multipart upload id, when the object arrives in parts.
    multipartUploadId: text('multipart_upload_id'),
    contentType: text('content_type').notNull(),
    maxBytes: integer('max_bytes').notNull(),
    // What the browser said it would send (photos): the confirmation checks the object against it.
    declaredSize: bigint('declared_size', { mode: 'number' }),
    checksum: text('checksum'),
    fileName: text('file_name'),
    // The part size of a multipart upload, so fresh part URLs cover the same byte ranges.
    partSize: integer('part_size'),
    // When the signed address stops working.
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('storage_uploads_expires_idx').on(t.expiresAt), index('storage_uploads_multipart_idx').on(t.multipartUploadId)],
);

/**
 * Rate-limit counters shared by every API process (docs/lab-rules.md §1): one row per limited call
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
