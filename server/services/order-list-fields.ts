import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { perDatabase } from '../db/prepared.ts';
import { toDollars } from '../../src/domain/money.ts';
import type { Db } from '../db/client.ts';
import { labOrders } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import type { Actor } from './auth-service.ts';
import { signPhotoKey } from './photo-service.ts';
import { zipLink } from './order-zip.ts';

/**
 * What the orders list shows of each order beyond its summary (ADMIN-CONTRACT.md Wire): the
 * indicators, notes icons, shipping, cover photo; and the admin's filters over them. Every
 * filtered value is a column of the order (the has_* flags are kept by triggers on line_items,
 * migration 0019_admin_tools), so a filtered page reads the same index as an unfiltered one.
 */

export const ORDER_FILTERS = ['mat', 'mount', 'frame', 'canvas', 'prints', 'api_order', 'test_print', 'boutique', 'hide_open', 'hide_mine'] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

/** The columns the list reads for these fields: flags and presence only, never the note texts. */
export const listFieldColumns = {
  urgent: labOrders.urgent,
  hasNotes: sql<boolean>`(coalesce(${labOrders.notes}, '') <> '')`.as('has_notes'),
  hasAdminNotes: sql<boolean>`(coalesce(${labOrders.internalNotes}, '') <> '')`.as('has_admin_notes'),
  hasFrame: labOrders.hasFrame,
  hasMount: labOrders.hasMount,
  hasMat: labOrders.hasMat,
  hasCanvas: labOrders.hasCanvas,
  apiOrder: labOrders.apiOrder,
  testPrint: labOrders.testPrint,
  boutiqueShipping: labOrders.boutiqueShipping,
  localPickup: labOrders.localPickup,
  trackingUrl: labOrders.trackingUrl,
  totalCents: labOrders.totalCents,
  colorCorrection: labOrders.colorCorrection,
  lineItemCount: labOrders.lineItemCount,
  zipKey: labOrders.zipKey,
  // The first photo's thumbnail (else its original), read with the page: one index probe per row
  // (photographs_order_idx) instead of another query. Spelled out: both tables have id and key.
  coverKey: sql<string | null>`(select coalesce(p."thumbnail_key", p."key") from "photographs" p where p."lab_order_id" = "lab_orders"."id" order by p."id" limit 1)`.as(
    'cover_key',
  ),
};
export interface ListFieldRow {
  orderName: string;
  urgent: boolean;
  hasNotes: boolean;
  hasAdminNotes: boolean;
  hasFrame: boolean;
  hasMount: boolean;
  hasMat: boolean;
  hasCanvas: boolean;
  apiOrder: boolean;
  testPrint: boolean;
  boutiqueShipping: boolean;
  localPickup: boolean;
  trackingUrl: string | null;
  totalCents: number;
  colorCorrection: string;
  lineItemCount: number;
  zipKey: string | null;
  coverKey: string | null;
}

/** The shipping the order uses: the lab ships one way, or the photographer picks the order up. */
export const shippingMethod = (localPickup: boolean) => (localPickup ? 'local_pickup' : 'standard');

/** The list fields of one order; admin-only ones are false or null for a photographer. */
export async function listFields(deps: Pick<ServerDeps, 'storage' | 'now'>, actor: Actor, row: ListFieldRow) {
  const admin = actor.user.isAdmin;
  return {
    urgent: row.urgent,
    has_notes: row.hasNotes,
    has_admin_notes: admin ? row.hasAdminNotes : false,
    has_frame: row.hasFrame,
    has_mount: row.hasMount,
    has_mat: row.hasMat,
    has_canvas: row.hasCanvas,
    api_order: row.apiOrder,
    test_print: row.testPrint,
    boutique_shipping: row.boutiqueShipping,
    local_pickup: row.localPickup,
    shipping_method: shippingMethod(row.localPickup),
    tracking_url: row.trackingUrl,
    total: toDollars(row.totalCents),
    cover_photo_url: row.coverKey ? await signPhotoKey(deps, row.coverKey) : null,
    download_all_link: admin ? await zipLink(deps, row) : null,
    color_correction: row.colorCorrection as 'lab' | 'as_is',
    line_item_count: row.lineItemCount,
  };
}

export interface AdminListFilters {
  filters?: OrderFilter[] | undefined;
  photographerId?: string | undefined;
  urgent?: boolean | undefined;
}

const FILTER_CONDITION: Record<OrderFilter, (actor: Actor) => SQL> = {
  mat: () => eq(labOrders.hasMat, true),
  mount: () => eq(labOrders.hasMount, true),
  frame: () => eq(labOrders.hasFrame, true),
  canvas: () => eq(labOrders.hasCanvas, true),
  prints: () => eq(labOrders.hasPrints, true),
  api_order: () => eq(labOrders.apiOrder, true),
  test_print: () => eq(labOrders.testPrint, true),
  boutique: () => eq(labOrders.boutiqueShipping, true),
  hide_open: () => ne(labOrders.status, 'open'),
  hide_mine: (actor) => ne(labOrders.userGuid, actor.user.guid),
};

/** The admin's filters as conditions (AND-combined); none for a photographer, whose list is their own. */
export function adminConditions(actor: Actor, f: AdminListFilters): SQL[] {
  if (!actor.user.isAdmin) return [];
  const conditions = (f.filters ?? []).map((name) => FILTER_CONDITION[name](actor));
  if (f.photographerId) conditions.push(eq(labOrders.userGuid, f.photographerId));
  // The urgent condition is written as the partial index's predicate, so the planner uses it.
  if (f.urgent) conditions.push(sql`${labOrders.urgent}`);
  return conditions;
}

// Built once per database (server/db/prepared.ts): every list call asks.
const urgentCounts = perDatabase((db) => {
  const n = { n: sql<number>`count(*)::integer` };
  return {
    all: db.select(n).from(labOrders).where(sql`${labOrders.urgent}`).prepare('orders_urgent_all'),
    own: db.select(n).from(labOrders).where(and(sql`${labOrders.urgent}`, eq(labOrders.userGuid, sql.placeholder('user')))).prepare('orders_urgent_own'),
  };
});

/** meta.urgent_count: the urgent orders the caller may see (the partial index holds only those). */
export async function urgentCount(db: Db, actor: Actor): Promise<number> {
  const q = urgentCounts(db);
  const [row] = actor.user.isAdmin ? await q.all.execute() : await q.own.execute({ user: actor.user.guid });
  return row?.n ?? 0;
}
