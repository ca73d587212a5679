import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Photographers, admins and API vendors: one table, roles as flags (DESIGN.md §5). */
export const users = pgTable(
  'users',
  {
    guid: uuid('guid').primaryKey().defaultRandom(),
    // Stored trimmed and lower-cased, so uniqueness is case-insensitive by construction.
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    businessName: text('business_name').notNull().default(''),
    businessUrl: text('business_url'),
    socialMediaUrl: text('social_media_url'),
    phone: text('phone'),
    isAdmin: boolean('is_admin').notNull().default(false),
    isApiVendor: boolean('is_api_vendor').notNull().default(false),
    userApproved: boolean('user_approved').notNull().default(true),
    referralCode: text('referral_code'),
    referredByGuid: uuid('referred_by_guid'),
    creditAvailableCents: integer('credit_available_cents').notNull().default(0),
    tnBusiness: boolean('tn_business'),
    failedLoginCount: integer('failed_login_count').notNull().default(0),
    failedLoginAt: timestamp('failed_login_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_referral_code_key').on(t.referralCode)],
);

/** Sessions: only a SHA-256 of the token is stored, so a database leak signs nobody in. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    // The admin who opened this photographer session with login_as_user, for the audit trail.
    impersonatorGuid: uuid('impersonator_guid').references(() => users.guid, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userGuid)],
);

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

export const labOrders = pgTable(
  'lab_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guid: uuid('guid').notNull().defaultRandom(),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    orderName: text('order_name').notNull(),
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('lab_orders_guid_key').on(t.guid),
    index('lab_orders_user_idx').on(t.userGuid),
    // Order names are unique per photographer, compared case-insensitively.
    uniqueIndex('lab_orders_user_name_key').on(t.userGuid, sql`lower(${t.orderName})`),
  ],
);
