import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgSequence, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ReturnAddress } from '../../../src/domain/packing-slip.ts';
import { createdAt, updatedAt } from './columns.ts';

/** Photographers, admins and API vendors: one table, roles as flags (docs/lab-rules.md §5). */
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
    stripeCustomerId: text('stripe_customer_id'),
    referredByGuid: uuid('referred_by_guid'),
    creditAvailableCents: integer('credit_available_cents').notNull().default(0),
    tnBusiness: boolean('tn_business'),
    // The order status mails the photographer turned off on /account (src/domain/status-mails.ts).
    statusMailsOff: text('status_mails_off').array().notNull().default([]),
    // Object-storage key of the blanket certificate of resale (a PDF), once uploaded.
    blanketCertificateKey: text('blanket_certificate_key'),
    // The blind packing slip (src/domain/packing-slip.ts): the logo as the slip's JPEG, and the
    // return address, kept apart from the shipping addresses so it never becomes one.
    packingSlipLogoKey: text('packing_slip_logo_key'),
    packingSlipReturnAddress: jsonb('packing_slip_return_address').$type<ReturnAddress>(),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    // The primary address and card (no foreign key: the rows live in later tables; cleared on removal).
    defaultAddressGuid: uuid('default_address_guid'),
    defaultCardId: uuid('default_card_id'),
    // The code a photographer enters on /shopify-connect to link their shop (shown on /account).
    shopConnectionCode: text('shop_connection_code'),
    failedLoginCount: integer('failed_login_count').notNull().default(0),
    failedLoginAt: timestamp('failed_login_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_referral_code_key').on(t.referralCode),
    uniqueIndex('users_shop_connection_code_key').on(t.shopConnectionCode),
    // Whom a photographer referred: counted on every profile, listed on the referral report.
    index('users_referred_by_idx').on(t.referredByGuid),
  ],
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

/** A photographer's saved shipping addresses. */
export const addresses = pgTable(
  'addresses',
  {
    guid: uuid('guid').primaryKey().defaultRandom(),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    recipient: text('recipient'),
    street: text('street').notNull(),
    street2: text('street_2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    phone: text('phone'),
    createdAt: createdAt(),
  },
  (t) => [index('addresses_user_idx').on(t.userGuid)],
);

/** Saved cards: only the payment provider's reference and what may be shown (brand, last 4). */
export const cards = pgTable(
  'cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerCardId: text('provider_card_id').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month'),
    expYear: integer('exp_year'),
    // The sandbox remembers what a charge on the card will do ('succeeds' or 'declines').
    sandboxBehaviour: text('sandbox_behaviour'),
    // False for a card typed at checkout without SAVE CARD FOR FUTURE USE: saved with the provider
    // (to be charged) but never listed, never primary, never chosen for another order.
    kept: boolean('kept').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('cards_user_idx').on(t.userGuid)],
);

/**
 * Shops linked to a photographer's account through /shopify-connect. A connection proven by
 * Shopify's signature is confirmed at once; otherwise it waits for the photographer to confirm it
 * on /account, and does nothing until then. A shop belongs to one account once confirmed; claims
 * that wait block nobody.
 */
export const shopConnections = pgTable(
  'shop_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    shopDomain: text('shop_domain').notNull(),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('shop_connections_confirmed_shop_key').on(t.shopDomain).where(sql`confirmed_at is not null`),
    uniqueIndex('shop_connections_user_shop_key').on(t.userGuid, t.shopDomain),
  ],
);

/** Where account versions come from: every version is new, even after a truncate. */
export const accountVersionsSeq = pgSequence('account_versions_seq');

/**
 * A version of each account's profile: a new number whenever anything the profile shows changes
 * (the user's row, their addresses, cards, shops and tax reports, who referred them and whom they
 * referred), kept by deferred triggers (migration 0027_account_versions) at the commit of the
 * change, whatever code made it. The profile's answer is kept in memory under it
 * (server/services/profile-cache.ts). No foreign key: a deleted user's rows go before the version
 * is written at commit.
 */
export const accountVersions = pgTable('account_versions', {
  userGuid: uuid('user_guid').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/** Password reset tokens: 6 characters, mailed, stored hashed, short-lived, burnt by guessing. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.userGuid)],
);
