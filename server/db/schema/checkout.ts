import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { cards } from './accounts.ts';
import { discountCodes, labOrders } from './orders.ts';

/**
 * One row per attempt to charge an order (issue 12). A checkout reserves the credit and the
 * discount use and writes a `pending` row in one transaction, charges the card outside any
 * transaction, then settles the row: `succeeded` (the order is paid in the same transaction),
 * `declined` or `failed` (the reservations are given back). A `pending` row left by a crash is
 * settled from the provider's record, found by the row's idempotency key (checkout-recovery.ts).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    labOrderId: bigint('lab_order_id', { mode: 'number' })
      .notNull()
      .references(() => labOrders.id, { onDelete: 'cascade' }),
    // The order's attempt number (1, 2, …): part of the idempotency key, so a retry with another
    // card after a decline is a new charge, and a replay of the same attempt is not.
    attempt: integer('attempt').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    // The checkout request's own Idempotency-Key (with its user), when it sent one: the same
    // request retried after a crash is answered with the order this attempt paid, not "not open".
    requestKey: text('request_key'),
    amountCents: integer('amount_cents').notNull(),
    // What the attempt reserved, given back if it does not succeed.
    creditCents: integer('credit_cents').notNull().default(0),
    discountCodeId: uuid('discount_code_id').references(() => discountCodes.id, { onDelete: 'set null' }),
    cardId: uuid('card_id').references(() => cards.id, { onDelete: 'set null' }),
    // SAVE CARD FOR FUTURE USE, remembered so a recovered payment keeps the card as asked.
    saveCard: boolean('save_card').notNull().default(false),
    status: text('status').notNull().default('pending'),
    providerChargeId: text('provider_charge_id'),
    message: text('message'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_idempotency_key_key').on(t.idempotencyKey),
    uniqueIndex('payments_order_attempt_key').on(t.labOrderId, t.attempt),
    // One payment in flight or done per order: two tabs or devices cannot both start one.
    uniqueIndex('payments_one_live_per_order_key').on(t.labOrderId).where(sql`${t.status} in ('pending', 'succeeded')`),
    // Recovery looks for the few pending rows only.
    index('payments_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The sandbox provider's own record of its charges (what Stripe keeps on its side), keyed by the
 * idempotency key: a replayed key answers the first charge, and recovery finds it by that key.
 */
export const sandboxCharges = pgTable('sandbox_charges', {
  idempotencyKey: text('idempotency_key').primaryKey(),
  id: text('id').notNull(),
  customerId: text('customer_id'),
  providerCardId: text('provider_card_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  // 'succeeded' or 'declined'.
  status: text('status').notNull(),
  message: text('message'),
  description: text('description').notNull(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  createdAt: createdAt(),
});
