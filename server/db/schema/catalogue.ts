import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DEFAULT_TURNAROUND, type Turnaround } from '../../../src/domain/turnaround.ts';
import { DEFAULT_SHIPPING_SPEED_CENTS, type ShippingSpeed } from '../../../src/domain/shipping-speeds.ts';

/**
 * The lab's catalogue. Loading a new catalogue file adds a new set of rows and retires the old
 * one; old rows stay, so line items built with them keep their products and prices.
 */
export const catalogues = pgTable(
  'catalogues',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(false),
    // The lab's order minimum (issue 34): an order's prints and finishing must reach it; 0 = none.
    orderMinimumCents: integer('order_minimum_cents').notNull().default(0),
    // Business days per product family (issue 34, src/domain/turnaround.ts); a catalogue loaded
    // before turnaround existed gets the default's.
    turnaroundDays: jsonb('turnaround_days').$type<Turnaround>().notNull().default(DEFAULT_TURNAROUND),
    // The lab's days off besides weekends (YYYY-MM-DD), skipped by every turnaround count.
    holidays: jsonb('holidays').$type<string[]>().notNull().default([]),
    // The price of each shipping speed (issue 34), in cents; an order's shipping is its speed's.
    shippingSpeedCents: jsonb('shipping_speed_cents').$type<Record<ShippingSpeed, number>>().notNull().default(DEFAULT_SHIPPING_SPEED_CENTS),
    // What shipping an order straight to the photographer's client adds, once per order.
    dropShipFeeCents: integer('drop_ship_fee_cents').notNull().default(0),
    loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
    // Counts the changes to the catalogue's answers made without a new load (a paper's ICC
    // profile attached by an admin): with the id, the version the answers are cached by.
    revision: integer('revision').notNull().default(0),
  },
  // One active catalogue at most; every catalogue read asks for it first (its version).
  (t) => [uniqueIndex('catalogues_one_active_key').on(t.active).where(sql`${t.active}`)],
);

/**
 * The papers' ICC output profiles (issue 35), one row per distinct file: the key is the storage
 * key, made of the file's SHA-256, so it changes whenever the bytes do and the file it names never
 * changes (served with immutable caching).
 */
export const paperProfiles = pgTable('paper_profiles', {
  key: text('key').primaryKey(),
  /** The name the admin gave the file (or the catalogue file named). */
  name: text('name').notNull(),
  /** 'RGB' or 'CMYK': the paper's device colour space, the ones the proof can use. */
  colourSpace: text('colour_space').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
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
    // The paper's ICC output profile for the soft proof; null: none, so no proof is offered.
    iccProfileKey: text('icc_profile_key').references(() => paperProfiles.key),
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
