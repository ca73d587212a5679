import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { labOrders, photographs } from './orders.ts';

/**
 * Custom album orders (docs/orders.md §1, §3 Album): an album the lab designed with the photographer,
 * entered on their order by the lab, priced as a whole and shown read-only on the order detail.
 */
export const albums = pgTable(
  'albums',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guid: uuid('guid').notNull().unique().defaultRandom(),
    labOrderId: bigint('lab_order_id', { mode: 'number' })
      .notNull()
      .references(() => labOrders.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    outerFabricName: text('outer_fabric_name'),
    innerFabricName: text('inner_fabric_name'),
    font: text('font'),
    spreadQuantity: integer('spread_quantity').notNull(),
    stamping: text('stamping'),
    upperTextValue: text('upper_text_value'),
    upperTextFontSize: integer('upper_text_font_size'),
    lowerTextValue: text('lower_text_value'),
    lowerTextFontSize: integer('lower_text_font_size'),
    textFont: text('text_font'),
    textColor: text('text_color'),
    totalCents: integer('total_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('albums_order_idx').on(t.labOrderId), check('albums_total_not_negative', sql`${t.totalCents} >= 0`), check('albums_spreads_positive', sql`${t.spreadQuantity} > 0`)],
);

/** An album's photos, in the album's order; each one of its order's photos. */
export const albumPhotos = pgTable(
  'album_photos',
  {
    albumId: bigint('album_id', { mode: 'number' })
      .notNull()
      .references(() => albums.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    photographId: bigint('photograph_id', { mode: 'number' })
      .notNull()
      .references(() => photographs.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.albumId, t.position] }), index('album_photos_photo_idx').on(t.photographId)],
);
