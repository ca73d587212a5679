import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { labOrders } from './orders.ts';

/**
 * Drop-ship (issue 34): the photographer's client an order ships to, one per order. Kept apart
 * from the photographer's own saved addresses (table addresses): it never becomes their primary
 * address and is never listed on /account. Its row is the order's drop-ship choice; it goes with
 * the order.
 */
export const orderClientAddresses = pgTable('order_client_addresses', {
  labOrderId: bigint('lab_order_id', { mode: 'number' })
    .primaryKey()
    .references(() => labOrders.id, { onDelete: 'cascade' }),
  recipient: text('recipient').notNull(),
  street: text('street').notNull(),
  street2: text('street2'),
  city: text('city').notNull(),
  state: text('state').notNull(),
  zip: text('zip').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
