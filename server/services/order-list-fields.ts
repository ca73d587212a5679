import { shippingMethod, type ShippingSpeed } from '../../src/domain/shipping-speeds.ts';
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { perDatabase } from '../db/prepared.ts';
import { toDollars } from '../../src/domain/money.ts';
import type { Db } from '../db/client.ts';
import { labOrders } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import type { Actor } from './auth-service.ts';
import { signPhotoKey } from './photo-service.ts';
import { zipLink } from './order-zip.ts';
import type { OrderFilter } from '../../src/domain/order-filters.ts';

/**
 * What the orders list shows of each order beyond its summary (docs/api.md §6): the
 * indicators, notes icons, shipping, cover photo; and the admin's filters over them. Every
 * filtered value is a column of the order (the has_* flags are kept by triggers on line_items,
 * migration 0019_admin_tools), so a filtered page reads the same index as an unfiltered one.
 */


/** The yes/no fields of a list card, in the order of their bits in `flags` (listFieldColumns). */
const FLAG_NAMES = ['urgent', 'hasNotes', 'hasAdminNotes', 'hasFrame', 'hasMount', 'hasMat', 'hasCanvas', 'apiOrder', 'testPrint', 'boutiqueShipping', 'localPickup'] as const;
type FlagName = (typeof FLAG_NAMES)[number];
export type ListFlags = Record<FlagName, boolean>;

const FLAG_SOURCES: Record<FlagName, SQL> = {
  urgent: sql`${labOrders.urgent}`,
  hasNotes: sql`coalesce(${labOrders.notes}, '') <> ''`,
  hasAdminNotes: sql`coalesce(${labOrders.internalNotes}, '') <> ''`,
  hasFrame: sql`${labOrders.hasFrame}`,
  hasMount: sql`${labOrders.hasMount}`,
  hasMat: sql`${labOrders.hasMat}`,
  hasCanvas: sql`${labOrders.hasCanvas}`,
  apiOrder: sql`${labOrders.apiOrder}`,
  testPrint: sql`${labOrders.testPrint}`,
  boutiqueShipping: sql`${labOrders.boutiqueShipping}`,
  localPickup: sql`${labOrders.localPickup}`,
};

/** The flags read back from their bits. */
export function unpackFlags(bits: number): ListFlags {
  return {
    urgent: (bits & 1) !== 0,
    hasNotes: (bits & 2) !== 0,
    hasAdminNotes: (bits & 4) !== 0,
    hasFrame: (bits & 8) !== 0,
    hasMount: (bits & 16) !== 0,
    hasMat: (bits & 32) !== 0,
    hasCanvas: (bits & 64) !== 0,
    apiOrder: (bits & 128) !== 0,
    testPrint: (bits & 256) !== 0,
    boutiqueShipping: (bits & 512) !== 0,
    localPickup: (bits & 1024) !== 0,
  };
}

/**
 * The columns the list reads for these fields: flags and presence only, never the note texts.
 * The eleven yes/no fields come as the bits of one integer: every column of every row costs its
 * own decoding on the server's thread (the list's main cost on the bench), a bit costs nothing.
 */
export const listFieldColumns = {
  flags: sql<number>`(${sql.join(
    FLAG_NAMES.map((name, bit) => sql`(case when ${FLAG_SOURCES[name]} then ${sql.raw(String(1 << bit))} else 0 end)`),
    sql` | `,
  )})`.as('list_flags'),
  trackingUrl: labOrders.trackingUrl,
  totalCents: labOrders.totalCents,
  colorCorrection: labOrders.colorCorrection,
  lineItemCount: labOrders.lineItemCount,
  shippingSpeed: labOrders.shippingSpeed,
  zipKey: labOrders.zipKey,
  // Kept on the order by triggers on photographs (migration 0022_order_cover_and_versions).
  coverKey: labOrders.coverKey,
};
export interface ListFieldRow extends ListFlags {
  orderName: string;
  trackingUrl: string | null;
  totalCents: number;
  colorCorrection: string;
  lineItemCount: number;
  shippingSpeed: ShippingSpeed;
  zipKey: string | null;
  coverKey: string | null;
}


/** The signed addresses a list card shows: its cover photo, and for an admin the zip. */
export interface ListLinks {
  cover: string | null;
  zip: string | null;
}

/** Signs what a card links to (an order without a cover or zip costs no signature). */
export async function listLinks(deps: Pick<ServerDeps, 'storage' | 'now'>, actor: Actor, row: Pick<ListFieldRow, 'coverKey' | 'zipKey' | 'orderName'>): Promise<ListLinks> {
  return {
    cover: row.coverKey ? await signPhotoKey(deps, row.coverKey) : null,
    zip: actor.user.isAdmin ? await zipLink(deps, row) : null,
  };
}

/**
 * The list fields of one order, its links signed; admin-only ones are false or null for a
 * photographer. The flags come apart from the row: the list reads them as bits (unpackFlags).
 */
export function listFieldValues(admin: boolean, flags: ListFlags, row: Omit<ListFieldRow, FlagName>, links: ListLinks) {
  return {
    urgent: flags.urgent,
    has_notes: flags.hasNotes,
    has_admin_notes: admin ? flags.hasAdminNotes : false,
    has_frame: flags.hasFrame,
    has_mount: flags.hasMount,
    has_mat: flags.hasMat,
    has_canvas: flags.hasCanvas,
    api_order: flags.apiOrder,
    test_print: flags.testPrint,
    boutique_shipping: flags.boutiqueShipping,
    local_pickup: flags.localPickup,
    shipping_method: shippingMethod(flags.localPickup, row.shippingSpeed),
    tracking_url: row.trackingUrl,
    total: toDollars(row.totalCents),
    cover_photo_url: links.cover,
    download_all_link: links.zip,
    color_correction: row.colorCorrection as 'lab' | 'as_is',
    line_item_count: row.lineItemCount,
  };
}

/** The list fields of one order (the order record shows them too). */
export async function listFields(deps: Pick<ServerDeps, 'storage' | 'now'>, actor: Actor, row: ListFieldRow) {
  return listFieldValues(actor.user.isAdmin, row, row, await listLinks(deps, actor, row));
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
