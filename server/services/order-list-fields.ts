import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { toDollars } from '../../src/domain/money.ts';
import type { Db } from '../db/client.ts';
import { labOrders, photographs } from '../db/schema.ts';
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
}

/** The shipping the order uses: the lab ships one way, or the photographer picks the order up. */
export const shippingMethod = (localPickup: boolean) => (localPickup ? 'local_pickup' : 'standard');

/** The list fields of one order; admin-only ones are false or null for a photographer. */
export async function listFields(deps: Pick<ServerDeps, 'storage' | 'now'>, actor: Actor, row: ListFieldRow, coverKey: string | null) {
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
    cover_photo_url: coverKey ? await signPhotoKey(deps, coverKey) : null,
    download_all_link: admin ? await zipLink(deps, row) : null,
    color_correction: row.colorCorrection as 'lab' | 'as_is',
    line_item_count: row.lineItemCount,
  };
}

/**
 * The first photo of each order that has one: its thumbnail, else its original. One query for the
 * page, through photographs_order_idx.
 */
export async function coverKeys(db: Db, orderIds: number[]): Promise<Map<number, string>> {
  if (!orderIds.length) return new Map();
  const rows = await db
    .selectDistinctOn([photographs.labOrderId], { orderId: photographs.labOrderId, thumb: photographs.thumbnailKey, key: photographs.key })
    .from(photographs)
    .where(inArray(photographs.labOrderId, orderIds))
    .orderBy(asc(photographs.labOrderId), asc(photographs.id));
  return new Map(rows.map((r) => [r.orderId, r.thumb ?? r.key]));
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

/** meta.urgent_count: the urgent orders the caller may see (the partial index holds only those). */
export async function urgentCount(db: Db, actor: Actor): Promise<number> {
  const mine = actor.user.isAdmin ? undefined : eq(labOrders.userGuid, actor.user.guid);
  const [row] = await db.select({ n: sql<number>`count(*)::integer` }).from(labOrders).where(and(sql`${labOrders.urgent}`, mine));
  return row?.n ?? 0;
}
