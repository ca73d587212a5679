import { sql } from 'drizzle-orm';
import {
  bigint,
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
    stripeCustomerId: text('stripe_customer_id'),
    referredByGuid: uuid('referred_by_guid'),
    creditAvailableCents: integer('credit_available_cents').notNull().default(0),
    tnBusiness: boolean('tn_business'),
    // Object-storage key of the blanket certificate of resale (a PDF), once uploaded.
    blanketCertificateKey: text('blanket_certificate_key'),
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
    // The order's figures as charged, in cents (DESIGN.md §5); the sales report reads them.
    subtotalCents: integer('subtotal_cents').notNull().default(0),
    discountCents: integer('discount_cents').notNull().default(0),
    creditCents: integer('credit_cents').notNull().default(0),
    shippingCents: integer('shipping_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull().default(0),
  },
  (t) => [
    uniqueIndex('lab_orders_guid_key').on(t.guid),
    index('lab_orders_user_idx').on(t.userGuid),
    // Order names are unique per photographer, compared case-insensitively.
    uniqueIndex('lab_orders_user_name_key').on(t.userGuid, sql`lower(${t.orderName})`),
  ],
);

/**
 * The lab's catalogue. Loading a new catalogue file adds a new set of rows and retires the old
 * one; old rows stay, so line items built with them keep their products and prices.
 */
export const catalogues = pgTable('catalogues', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  name: text('name').notNull(),
  active: boolean('active').notNull().default(false),
  loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
});

export const papers = pgTable(
  'papers',
  {
    guid: uuid('guid').primaryKey().defaultRandom(),
    catalogueId: bigint('catalogue_id', { mode: 'number' })
      .notNull()
      .references(() => catalogues.id),
    name: text('name').notNull(),
    allowsBorder: boolean('allows_border').notNull().default(false),
    position: integer('position').notNull(),
  },
  (t) => [index('papers_catalogue_idx').on(t.catalogueId)],
);

export const printSizes = pgTable(
  'print_sizes',
  {
    guid: uuid('guid').primaryKey().defaultRandom(),
    paperGuid: uuid('paper_guid')
      .notNull()
      .references(() => papers.guid),
    name: text('name').notNull(),
    xAspect: integer('x_aspect').notNull(),
    yAspect: integer('y_aspect').notNull(),
    priceCents: integer('price_cents').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [index('print_sizes_paper_idx').on(t.paperGuid)],
);

export const finishingServices = pgTable(
  'finishing_services',
  {
    guid: uuid('guid').primaryKey().defaultRandom(),
    printSizeGuid: uuid('print_size_guid')
      .notNull()
      .references(() => printSizes.guid),
    category: text('category').notNull(),
    name: text('name').notNull(),
    frameProfile: text('frame_profile'),
    priceCents: integer('price_cents').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [index('finishing_services_print_size_idx').on(t.printSizeGuid)],
);

export const finishingDetails = pgTable(
  'finishing_details',
  {
    guid: uuid('guid').primaryKey().defaultRandom(),
    finishingServiceGuid: uuid('finishing_service_guid')
      .notNull()
      .references(() => finishingServices.guid),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    priceCents: integer('price_cents').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    position: integer('position').notNull(),
  },
  (t) => [index('finishing_details_service_idx').on(t.finishingServiceGuid)],
);

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
    createdAt: createdAt(),
  },
  (t) => [index('cards_user_idx').on(t.userGuid)],
);

/** Every change to a photographer's credit, with why (referral credit, credit spent, admin). */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    referredUserGuid: uuid('referred_user_guid').references(() => users.guid, { onDelete: 'set null' }),
    labOrderId: bigint('lab_order_id', { mode: 'number' }).references(() => labOrders.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_ledger_user_idx').on(t.userGuid),
    // An order earns its referral credit once, however often the payment is reported.
    uniqueIndex('credit_ledger_order_reason_key').on(t.labOrderId, t.reason),
  ],
);

/** Shops linked to a photographer's account through /shopify-connect. */
export const shopConnections = pgTable(
  'shop_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    shopDomain: text('shop_domain').notNull(),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('shop_connections_shop_key').on(t.shopDomain)],
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

/** Yearly sales reports (SALES HISTORY): made by a background job, kept in object storage. */
export const taxReports = pgTable(
  'tax_reports',
  {
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    status: text('status').notNull(),
    csvKey: text('csv_key'),
    pdfKey: text('pdf_key'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    generatedAt: timestamp('generated_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userGuid, t.year] })],
);
