import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './accounts.ts';
import { labOrders } from './orders.ts';

/**
 * What happened to an order and who did it (issue 13): status changes, urgent, notes, tracking,
 * refunds, zip, vendor sends, merges, cancellation. The order detail shows them to admins.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    labOrderId: bigint('lab_order_id', { mode: 'number' })
      .notNull()
      .references(() => labOrders.id, { onDelete: 'cascade' }),
    // Null once the person's account is gone; the event stays.
    actorGuid: uuid('actor_guid').references(() => users.guid, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    fromValue: text('from_value'),
    toValue: text('to_value'),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [index('order_events_order_idx').on(t.labOrderId, t.id)],
);

/** What an admin did to a photographer's account (email, password, credit, approval, log in as). */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminGuid: uuid('admin_guid').references(() => users.guid, { onDelete: 'set null' }),
    userGuid: uuid('user_guid')
      .notNull()
      .references(() => users.guid, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [index('admin_actions_user_idx').on(t.userGuid, t.id)],
);

/** Money given back on an order through the payment provider; lab_orders.refund_cents is their sum. */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    labOrderId: bigint('lab_order_id', { mode: 'number' })
      .notNull()
      .references(() => labOrders.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    note: text('note'),
    actorGuid: uuid('actor_guid').references(() => users.guid, { onDelete: 'set null' }),
    idempotencyKey: text('idempotency_key').notNull(),
    providerRefundId: text('provider_refund_id'),
    // 'pending' from its reservation until the provider's answer is recorded ('succeeded'); a
    // pending row a crash left behind is settled from the provider's record (refund-recovery.ts).
    status: text('status').notNull().default('succeeded'),
    // 'refund' (an admin's) or 'cancel' (the photographer's cancellation): what settling completes.
    kind: text('kind').notNull().default('refund'),
    createdAt: createdAt(),
  },
  (t) => [
    index('refunds_order_idx').on(t.labOrderId),
    uniqueIndex('refunds_idempotency_key_key').on(t.idempotencyKey),
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
    check('refunds_status_known', sql`${t.status} in ('pending', 'succeeded')`),
    check('refunds_kind_known', sql`${t.kind} in ('refund', 'cancel')`),
    // The recovery sweep reads only the few pending ones.
    index('refunds_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** The sandbox provider's own record of its refunds (what Stripe keeps), keyed by idempotency key. */
export const sandboxRefunds = pgTable('sandbox_refunds', {
  idempotencyKey: text('idempotency_key').primaryKey(),
  id: text('id').notNull(),
  chargeId: text('charge_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  createdAt: createdAt(),
});
