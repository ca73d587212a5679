import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { cards, users } from './accounts.ts';
import type { OrderStatus } from '../../../src/domain/order-status.ts';
import type { ShippingSpeed } from '../../../src/domain/shipping-speeds.ts';

/**
 * Discount codes, made by an admin on the admin screen or the command line. Stored
 * upper-case; worth a percent of the subtotal or a fixed amount; a use is reserved when a
 * checkout starts with the code and given back when its payment is declined or fails.
 */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    kind: text('kind').notNull(),
    percent: integer('percent'),
    amountCents: integer('amount_cents'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    uses: integer('uses').notNull().default(0),
    // PAUSE on the admin screen: refused at checkout until RESUME, its uses and expiry kept.
    paused: boolean('paused').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('discount_codes_code_key').on(t.code),
    check('discount_codes_code_upper', sql`${t.code} = upper(${t.code})`),
    check(
      'discount_codes_kind',
      sql`(${t.kind} = 'percent' and ${t.percent} between 1 and 100 and ${t.amountCents} is null) or (${t.kind} = 'amount' and ${t.amountCents} > 0 and ${t.percent} is null)`,
    ),
    check('discount_codes_uses', sql`${t.uses} >= 0 and (${t.usageLimit} is null or ${t.uses} <= ${t.usageLimit})`),
  ],
);

/** An order's shipping address as chosen at checkout, kept with the order (the profile's copy may be removed later). */
export interface ShippingAddressSnapshot {
  guid: string;
  recipient: string | null;
  street: string;
  street2: string | null;
  city: string;
  state: string;
  zip: string;
  phone: string | null;
}

export const labOrders = pgTable(
  'lab_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guid: uuid('guid').notNull().defaultRandom(),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    orderName: text('order_name').notNull(),
    status: text('status').$type<OrderStatus>().notNull().default('open'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    // The order's figures as charged, in cents (docs/lab-rules.md §3); the sales report reads them.
    subtotalCents: integer('subtotal_cents').notNull().default(0),
    discountCents: integer('discount_cents').notNull().default(0),
    creditCents: integer('credit_cents').notNull().default(0),
    shippingCents: integer('shipping_cents').notNull().default(0),
    // Of the subtotal, what finishing comes to (the rest is prints): the all-in cost shows both.
    finishingCents: integer('finishing_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull().default(0),
    // The photographer's notes on the whole order (docs/orders.md §3 notes, has_notes).
    notes: text('notes'),
    // Checkout (issue 12). The credit the photographer asked to apply; credit_cents is what
    // pricing.ts allows of it (never more than owed nor than available).
    creditRequestedCents: integer('credit_requested_cents').notNull().default(0),
    discountCodeId: uuid('discount_code_id').references(() => discountCodes.id, { onDelete: 'set null' }),
    localPickup: boolean('local_pickup').notNull().default(false),
    // The carrier service chosen at checkout (src/domain/shipping-speeds.ts); priced from the
    // active catalogue. Kept while local pickup is on, so turning it off restores the choice.
    shippingSpeed: text('shipping_speed').$type<ShippingSpeed>().notNull().default('standard'),
    // The drop-ship fee as charged: the catalogue's, while the order ships to the photographer's
    // client (table order_client_addresses).
    dropShipCents: integer('drop_ship_cents').notNull().default(0),
    shippingAddress: jsonb('shipping_address').$type<ShippingAddressSnapshot>(),
    selectedCardId: uuid('selected_card_id').references(() => cards.id, { onDelete: 'set null' }),
    usedSavedCard: boolean('used_saved_card').notNull().default(false),
    boutiqueShipping: boolean('boutique_shipping').notNull().default(false),
    boutiqueNote: text('boutique_note'),
    boutiqueCents: integer('boutique_cents').notNull().default(0),
    // A packing slip in the studio's name instead of the lab's (src/domain/packing-slip.ts).
    blindSlip: boolean('blind_slip').notNull().default(false),
    permissionToShare: boolean('permission_to_share').notNull().default(false),
    // The payment provider's charge id once paid (stripe_order_confirmation on the wire).
    paymentConfirmation: text('payment_confirmation'),
    // The lab's tools (issue 13, docs/api.md §6). Flagged by an admin for the 'Urgent Orders:' section.
    urgent: boolean('urgent').notNull().default(false),
    // The admin note: never shown to the photographer.
    internalNotes: text('internal_notes'),
    trackingUrl: text('tracking_url'),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    // Orders placed through a vendor's API, and test prints (the filters API ORDER, TEST PRINTS).
    apiOrder: boolean('api_order').notNull().default(false),
    testPrint: boolean('test_print').notNull().default(false),
    // 'lab' (the lab corrects colour) or 'as_is' (printed as sent), chosen by the photographer.
    colorCorrection: text('color_correction').notNull().default('lab'),
    // The sum of the order's refunds (table refunds), kept with each refund in its transaction.
    refundCents: integer('refund_cents').notNull().default(0),
    // What the line items hold, kept by triggers on line_items (migration 0019_admin_tools) so the
    // admin's filters read a column of the order instead of looking into every order's items.
    hasFrame: boolean('has_frame').notNull().default(false),
    hasMount: boolean('has_mount').notNull().default(false),
    hasMat: boolean('has_mat').notNull().default(false),
    hasCanvas: boolean('has_canvas').notNull().default(false),
    hasPrints: boolean('has_prints').notNull().default(false),
    lineItemCount: integer('line_item_count').notNull().default(0),
    // The list's cover: the first photo's thumbnail key, else its original's; null without photos.
    // Kept by triggers on photographs (migration 0020_order_cover_key) so a page of the list reads
    // a column instead of looking up each order's first photo.
    coverKey: text('cover_key'),
    // The zip of the originals (DOWNLOAD ALL): its object key once built; requested_at while building.
    zipKey: text('zip_key'),
    zipRequestedAt: timestamp('zip_requested_at', { withTimezone: true }),
    lastSentToVendorAt: timestamp('last_sent_to_vendor_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    // The day the lab promised to ship (issue 34, src/domain/ship-dates.ts): set at payment from
    // the turnaround, moved by each delay (order_delays).
    promisedShipDate: date('promised_ship_date', { mode: 'string' }),
  },
  (t) => [
    uniqueIndex('lab_orders_guid_key').on(t.guid),
    // The orders list pages newest first by the date it shows (paid, else updated), id breaking
    // ties: one index for the admin's list of all orders, one for a photographer's own (which
    // also serves the foreign key to users).
    index('lab_orders_shown_idx').on(sql`coalesce(${t.paidAt}, ${t.updatedAt})`, t.id),
    index('lab_orders_user_shown_idx').on(t.userGuid, sql`coalesce(${t.paidAt}, ${t.updatedAt})`, t.id),
    // Order names are unique per photographer, compared case-insensitively.
    uniqueIndex('lab_orders_user_name_key').on(t.userGuid, sql`lower(${t.orderName})`),
    // The 'Urgent Orders:' section and meta.urgent_count: only the few urgent orders are indexed.
    index('lab_orders_urgent_idx').on(sql`coalesce(${t.paidAt}, ${t.updatedAt})`, t.id).where(sql`${t.urgent}`),
    // The delay notices' sweep: only the orders the lab still has to ship.
    index('lab_orders_promised_idx').on(t.promisedShipDate).where(sql`${t.status} in ('paid', 'printing', 'framing')`),
  ],
);

/** Where order versions come from: every version is new, even after a truncate. */
export const orderVersionsSeq = pgSequence('order_versions_seq');

/**
 * A version of each photographer's orders: a new number whenever any of their orders is
 * inserted, changed or deleted, kept by a deferred trigger on lab_orders (migration
 * 0021_order_versions) at the commit of the change, whatever code made it (the triggers that keep
 * an order's flags and cover change the order too). A photographer's list pages are kept in
 * memory under it (server/services/list-page-cache.ts). No foreign key: a deleted photographer's
 * orders are deleted before the version is written at commit.
 */
export const orderVersions = pgTable('order_versions', {
  userGuid: uuid('user_guid').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/**
 * The version of the lab's orders as a whole: a new number whenever any order is inserted,
 * changed or deleted, or a photographer's name, business or email (which every admin list card
 * shows) changes. Kept by the same deferred triggers as orderVersions (migration
 * 0026_lab_order_version), at the commit of the change. The admin's list pages are kept in
 * memory under it (server/services/list-page-cache.ts). One row.
 */
export const labOrderVersion = pgTable(
  'lab_order_version',
  {
    // The one row's key: always true, so a second row cannot exist.
    id: boolean('id').primaryKey().default(true),
    version: bigint('version', { mode: 'number' }).notNull(),
  },
  (t) => [check('lab_order_version_one_row', sql`${t.id}`)],
);

/**
 * How many lab orders there are, kept so the admin's list can say 'N of M orders' without
 * counting a lab's hundreds of thousands of orders on every call. One row, kept by triggers on
 * lab_orders (migration 0017_order_counts): every insert, delete (a cascade from a deleted
 * photographer, a merge, a delete) and truncate changes it in the same transaction, whatever
 * code made the change.
 */
export const orderCounts = pgTable(
  'order_counts',
  {
    // The one row's key: always true, so a second row cannot exist.
    id: boolean('id').primaryKey().default(true),
    orders: bigint('orders', { mode: 'number' }).notNull(),
  },
  (t) => [check('order_counts_one_row', sql`${t.id}`)],
);

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

/**
 * The photos of an order (docs/orders.md §3, Image): each a checked JPEG or PNG in object storage,
 * once per order (the same bytes, by SHA-256, are stored and listed once), with the screen-size
 * preview and thumbnail the derivatives job makes.
 */
export const photographs = pgTable(
  'photographs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guid: uuid('guid').notNull().defaultRandom(),
    labOrderId: bigint('lab_order_id', { mode: 'number' })
      .notNull()
      .references(() => labOrders.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    // The original in object storage.
    key: text('key').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    // SHA-256 of the bytes, lower-case hex: computed by the server from the stored object.
    checksum: text('checksum').notNull(),
    contentType: text('content_type').notNull(),
    // As the photo is seen: EXIF orientation applied.
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    // Made by the derivatives job; null until then.
    previewKey: text('preview_key'),
    thumbnailKey: text('thumbnail_key'),
    // When the derivatives job was last asked for: housekeeping asks again only once it is overdue.
    derivativesRequestedAt: timestamp('derivatives_requested_at', { withTimezone: true }).notNull().defaultNow(),
    // Set when the derivatives job found the image data damaged (it passed the upload's checks but
    // cannot be decoded): why, in words the photographer reads; the job is not asked again.
    unreadableReason: text('unreadable_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('photographs_guid_key').on(t.guid),
    // Not unique: a reorder's photos share the stored objects of the order they repeat (no copy
    // of the bytes); deleting an order removes an object only when no photo names it any more.
    index('photographs_key_idx').on(t.key),
    uniqueIndex('photographs_order_checksum_key').on(t.labOrderId, t.checksum),
    // The order's photos in upload order, a page at a time.
    index('photographs_order_idx').on(t.labOrderId, t.id),
    // Housekeeping looks every minute for photos still waiting for their derivatives: only those
    // few rows are indexed, so the sweep never reads the whole table.
    index('photographs_missing_derivatives_idx').on(t.derivativesRequestedAt).where(sql`${t.thumbnailKey} is null`),
  ],
);

/**
 * A delay of an order (issue 34): its promised ship date moved, by the lab's schedule (the order
 * was not shipped by it) or by an admin with a reason. The photographer is told once per row.
 */
export const orderDelays = pgTable(
  'order_delays',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    labOrderId: bigint('lab_order_id', { mode: 'number' })
      .notNull()
      .references(() => labOrders.id, { onDelete: 'cascade' }),
    oldDate: date('old_date', { mode: 'string' }),
    newDate: date('new_date', { mode: 'string' }).notNull(),
    reason: text('reason').notNull(),
    // 'schedule' (the sweep of late orders) or 'admin' (adminGuid says who).
    declaredBy: text('declared_by').notNull(),
    adminGuid: uuid('admin_guid').references(() => users.guid, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('order_delays_order_idx').on(t.labOrderId, t.id)],
);
