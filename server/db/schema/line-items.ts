import { sql } from 'drizzle-orm';
import { bigint, bigserial, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { finishingServices, printSizes } from './catalogue.ts';
import { labOrders, photographs } from './orders.ts';

/**
 * The line items of an order (docs/orders.md §3, Line item): one photo, one print size, an optional
 * finishing with its details, a crop and a quantity. The guid is made by the client, so a change
 * made offline names the same row on the device and here (docs/api.md §9.
 */
export const lineItems = pgTable(
  'line_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guid: uuid('guid').notNull(),
    labOrderId: bigint('lab_order_id', { mode: 'number' })
      .notNull()
      .references(() => labOrders.id, { onDelete: 'cascade' }),
    photographId: bigint('photograph_id', { mode: 'number' })
      .notNull()
      .references(() => photographs.id, { onDelete: 'cascade' }),
    // Catalogue rows are never deleted (a new catalogue retires the old one), so these keep
    // naming the product the line item was priced with.
    printSizeGuid: uuid('print_size_guid')
      .notNull()
      .references(() => printSizes.guid),
    finishingServiceGuid: uuid('finishing_service_guid').references(() => finishingServices.guid),
    // The chosen detail guids in the order the category takes them (catalogue.ts allowedDetails).
    finishingDetailGuids: jsonb('finishing_detail_guids').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    printBorder: text('print_border').notNull().default('none'),
    notes: text('notes'),
    internalNotes: text('internal_notes'),
    externalId: text('external_id'),
    // The crop in percent of the photo as it is seen (EXIF orientation applied).
    cropX: doublePrecision('crop_x').notNull(),
    cropY: doublePrecision('crop_y').notNull(),
    cropW: doublePrecision('crop_w').notNull(),
    cropH: doublePrecision('crop_h').notNull(),
    aspect: doublePrecision('aspect'),
    quantity: integer('quantity').notNull(),
    // The prices of one print as the server priced it from its catalogue, in cents.
    printCents: integer('print_cents').notNull(),
    finishingCents: integer('finishing_cents').notNull(),
    // Raised whenever the photo or crop changes: a cropped image made for an older crop is dropped.
    cropVersion: integer('crop_version').notNull().default(1),
    // The cropped image the background job made for crop_version; null until then.
    croppedKey: text('cropped_key'),
    // When the cropped image was last asked for: housekeeping asks again only once it is overdue.
    cropRequestedAt: timestamp('crop_requested_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('line_items_guid_key').on(t.guid),
    // An order's line items in the order they were added.
    index('line_items_order_idx').on(t.labOrderId, t.id),
    index('line_items_photograph_idx').on(t.photographId),
    // Housekeeping looks every minute for line items still waiting for their cropped image: only
    // those few rows are indexed.
    index('line_items_missing_cropped_idx').on(t.cropRequestedAt).where(sql`${t.croppedKey} is null`),
  ],
);

/**
 * The client guids of line items that the merge rule folded into a line already in the cart
 * (docs/orders.md §5): sending such a line item again is a replay of the merge, never a second raise.
 */
export const lineItemMerges = pgTable(
  'line_item_merges',
  {
    guid: uuid('guid').primaryKey(),
    lineItemId: bigint('line_item_id', { mode: 'number' })
      .notNull()
      .references(() => lineItems.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  // Deleting a line item removes its merged guids through this index.
  (t) => [index('line_item_merges_line_item_idx').on(t.lineItemId)],
);
