import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { labOrders, users } from '../db/schema.ts';
import { unauthorized } from '../http/errors.ts';
import { fullName, type Actor } from './auth-service.ts';

/** The list's meta block (orders.md §3, "Response meta"). */
export function listMeta(actor: Actor) {
  return {
    current_user_is_admin: actor.user.isAdmin,
    current_user_is_api_vendor: actor.user.isApiVendor,
    view_as_photographer_id: null,
    view_as_photographer: null,
  };
}

/** Admins see every order; a photographer sees only their own (DESIGN.md §5). */
export async function listLabOrders(db: Db, actor: Actor | null) {
  if (!actor) throw unauthorized();
  const query = db
    .select({ order: labOrders, photographer: users })
    .from(labOrders)
    .innerJoin(users, eq(users.guid, labOrders.userGuid))
    .orderBy(desc(labOrders.updatedAt));
  const rows = actor.user.isAdmin ? await query : await query.where(eq(labOrders.userGuid, actor.user.guid));
  return {
    data: rows.map(({ order, photographer }) => ({
      id: String(order.id),
      type: 'lab_order' as const,
      attributes: {
        id: order.id,
        guid: order.guid,
        order_name: order.orderName,
        status: order.status,
        created_at: order.createdAt.toISOString(),
        updated_at: order.updatedAt.toISOString(),
        paid_at: order.paidAt?.toISOString() ?? null,
        photographer_id: photographer.guid,
        photographer_name: fullName(photographer),
        photographer_business: photographer.businessName,
        photographer_email: photographer.email,
      },
    })),
    meta: listMeta(actor),
  };
}
