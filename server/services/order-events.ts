import { desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { orderEvents, refunds, users } from '../db/schema.ts';
import { toDollars } from '../../src/domain/money.ts';
import { fullName } from './auth-service.ts';

/** The record of what happened to an order and who did it (docs/lab-rules.md §2). */

export type OrderEventKind =
  | 'status'
  | 'urgent'
  | 'internal_notes'
  | 'tracking_url'
  | 'color_correction'
  | 'shipping_address'
  // An admin's correction of a drop-ship's client address (admin-order-address.ts).
  | 'client_address'
  | 'album'
  | 'vendor_send_failed'
  | 'refund'
  | 'cancel'
  | 'zip'
  | 'vendor_send'
  | 'merge'
  | 'reorder'
  | 'referral_clawback';

export interface EventValues {
  from?: string | null | undefined;
  to?: string | null | undefined;
  detail?: string | null | undefined;
}

/** Records one event in the caller's transaction, so it exists exactly when the change does. */
export async function recordEvent(tx: Tx | Db, orderId: number, actorGuid: string | null, kind: OrderEventKind, values: EventValues = {}): Promise<void> {
  await tx.insert(orderEvents).values({ labOrderId: orderId, actorGuid, kind, fromValue: values.from ?? null, toValue: values.to ?? null, detail: values.detail ?? null });
}

// The detail shows the latest events; an order's whole life is rarely more than a few dozen.
const EVENTS_SHOWN = 200;

/** An order's events, newest first, with who did each. */
export async function eventsOf(db: Db, orderId: number) {
  const rows = await db
    .select({ event: orderEvents, firstName: users.firstName, lastName: users.lastName })
    .from(orderEvents)
    .leftJoin(users, eq(users.guid, orderEvents.actorGuid))
    .where(eq(orderEvents.labOrderId, orderId))
    .orderBy(desc(orderEvents.id))
    .limit(EVENTS_SHOWN);
  return rows.map(({ event, firstName, lastName }) => ({
    kind: event.kind,
    actor_guid: event.actorGuid,
    actor_name: firstName !== null && lastName !== null ? fullName({ firstName, lastName }) : null,
    from: event.fromValue,
    to: event.toValue,
    detail: event.detail,
    created_at: event.createdAt.toISOString(),
  }));
}

/** An order's refunds, newest first. */
export async function refundsOf(db: Db, orderId: number) {
  const rows = await db.select().from(refunds).where(eq(refunds.labOrderId, orderId)).orderBy(desc(refunds.createdAt));
  return rows.map((r) => ({ amount: toDollars(r.amountCents), note: r.note, status: r.status, actor_guid: r.actorGuid, provider_refund_id: r.providerRefundId, created_at: r.createdAt.toISOString() }));
}
