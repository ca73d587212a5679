import { and, eq, sql } from 'drizzle-orm';
import { perDatabase } from '../db/prepared.ts';
import { labOrders, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, notFound, unauthorized } from '../http/errors.ts';
import type { Actor, UserRow } from './auth-service.ts';

/** Who may see or change an order (docs/lab-rules.md §1), for every call that names one. */

export const ORDER_NOT_OPEN = 'Order needs to be in open status to upload photos.';
const ORDER_NOT_FOUND = 'This order does not exist.';
// Orders are named by uuid; anything else names no order (and must not reach a uuid column).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type OrderRow = typeof labOrders.$inferSelect;

// Nearly every call that names an order starts with one of these reads: built once per database
// (server/db/prepared.ts), and prepared once per connection on PostgreSQL.
const orderReads = perDatabase((db) => {
  const guid = eq(labOrders.guid, sql.placeholder('guid'));
  const withPhotographer = () => db.select({ order: labOrders, photographer: users }).from(labOrders).innerJoin(users, eq(users.guid, labOrders.userGuid));
  return {
    own: db
      .select()
      .from(labOrders)
      .where(and(guid, eq(labOrders.userGuid, sql.placeholder('user'))))
      .prepare('order_own'),
    visibleOwn: withPhotographer()
      .where(and(guid, eq(labOrders.userGuid, sql.placeholder('user'))))
      .prepare('order_visible_own'),
    visibleAny: withPhotographer().where(guid).prepare('order_visible_any'),
  };
});

/**
 * The order the caller may change: their own (anyone else's is 404, as if it did not exist),
 * and with `open` only an open one (409 OrderNotOpen).
 */
export async function ownOrder(deps: Pick<ServerDeps, 'db'>, actor: Actor | null, guid: string, opts: { open?: boolean } = {}): Promise<OrderRow> {
  if (!actor) throw unauthorized();
  if (!UUID.test(guid)) throw notFound(ORDER_NOT_FOUND);
  const [order] = await orderReads(deps.db).own.execute({ guid, user: actor.user.guid });
  if (!order) throw notFound(ORDER_NOT_FOUND);
  if (opts.open && order.status !== 'open') throw new HttpError(409, 'OrderNotOpen', ORDER_NOT_OPEN);
  return order;
}

/** The order the caller may see: their own, or any for a lab admin (docs/lab-rules.md §5); with its photographer. */
export async function visibleOrder(deps: Pick<ServerDeps, 'db'>, actor: Actor | null, guid: string): Promise<{ order: OrderRow; photographer: UserRow }> {
  if (!actor) throw unauthorized();
  if (!UUID.test(guid)) throw notFound(ORDER_NOT_FOUND);
  const reads = orderReads(deps.db);
  const [row] = actor.user.isAdmin ? await reads.visibleAny.execute({ guid }) : await reads.visibleOwn.execute({ guid, user: actor.user.guid });
  if (!row) throw notFound(ORDER_NOT_FOUND);
  return row;
}
