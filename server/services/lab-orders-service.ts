import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { perDatabase } from '../db/prepared.ts';
import { labOrders, orderCounts, users } from '../db/schema.ts';
import { unauthorized, validationError } from '../http/errors.ts';
import type { ServerDeps } from '../deps.ts';
import { fullName, type Actor } from './auth-service.ts';
import { keptPageKey, pageCache, type ListPage } from './list-page-cache.ts';

export type { ListPage };
import {
  adminConditions,
  listFieldColumns,
  listFieldValues,
  listLinks,
  unpackFlags,
  urgentCount,
  type ListFieldRow,
  type ListFlags,
  type ListLinks,
} from './order-list-fields.ts';


// What a summary reads: the list selects only these columns (a page costs less than whole rows).
type OrderSummaryRow = Pick<typeof labOrders.$inferSelect, 'id' | 'guid' | 'orderName' | 'status' | 'createdAt' | 'updatedAt' | 'paidAt'>;
type PhotographerSummaryRow = Pick<typeof users.$inferSelect, 'guid' | 'firstName' | 'lastName' | 'businessName' | 'email'>;

/** Who an order belongs to, as every list and record shows it. */
export function photographerAttributes(photographer: PhotographerSummaryRow) {
  return {
    photographer_id: photographer.guid,
    photographer_name: fullName(photographer),
    photographer_business: photographer.businessName,
    photographer_email: photographer.email,
  };
}

/** An order as every list and record shows it: id, name, status, dates and its photographer. */
export function orderSummary(order: OrderSummaryRow, photographer: PhotographerSummaryRow) {
  return {
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
      ...photographerAttributes(photographer),
    },
  };
}

/** The list's meta block (docs/orders.md §3, "Response meta"). */
export function listMeta(actor: Actor) {
  return {
    current_user_is_admin: actor.user.isAdmin,
    current_user_is_api_vendor: actor.user.isApiVendor,
    view_as_photographer_id: null,
    view_as_photographer: null,
  };
}


/** The date the list shows and sorts by: paid, else last updated (docs/orders.md §2). */
const shownAt = sql`coalesce(${labOrders.paidAt}, ${labOrders.updatedAt})`;

/**
 * A position in the list: the shown date (to the microsecond, as text, so no precision is lost
 * on the way through JavaScript) and the id of the last order of a page.
 */
interface Position {
  at: string;
  id: number;
}

const POSITION_AT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

const encodeCursor = (p: Position) => Buffer.from(JSON.stringify([p.at, p.id])).toString('base64url');

function decodeCursor(cursor: string): Position {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof at === 'string' && POSITION_AT.test(at) && Number.isSafeInteger(id) && (id as number) > 0) return { at, id: id as number };
  } catch {
    // Not ours: answered below.
  }
  throw validationError('This list position is not valid. Please reload the list.', ['cursor: not a cursor this server gave']);
}

/** LIKE's wildcards in a user's words are meant literally. */
const likePattern = (words: string) => `%${words.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * A timestamp as the API writes it (Date#toISOString: UTC, to the millisecond), made by the
 * database: parsing it into a Date and writing it out again costs the server's thread more than
 * the text. to_char's MS truncates the microseconds, as parsing them into a Date does.
 */
const isoText = (column: AnyPgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// Only the columns the list shows: decoding whole rows costs several times the query itself.
const orderColumns = {
  id: labOrders.id,
  guid: labOrders.guid,
  orderName: labOrders.orderName,
  status: labOrders.status,
  createdAt: isoText(labOrders.createdAt).as('created_at_text'),
  updatedAt: isoText(labOrders.updatedAt).as('updated_at_text'),
  paidAt: sql<string | null>`${isoText(labOrders.paidAt)}`.as('paid_at_text'),
  ...listFieldColumns,
  // Where a page ends: the shown date to the microsecond, as text (see Position), read with the
  // row rather than by another query for the page's last order.
  shownAtText: sql<string>`to_char(${shownAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('shown_at_text'),
};
const photographerColumns = { guid: users.guid, firstName: users.firstName, lastName: users.lastName, businessName: users.businessName, email: users.email };
interface OrderRow extends Omit<ListFieldRow, keyof ListFlags> {
  id: number;
  guid: string;
  status: string;
  /** ISO texts (isoText). */
  createdAt: string;
  updatedAt: string;
  paidAt: string | null;
  /** The yes/no fields as bits (unpackFlags). */
  flags: number;
  shownAtText: string;
}
type Photographer = Pick<typeof users.$inferSelect, keyof typeof photographerColumns>;

const newestFirst = [desc(shownAt), desc(labOrders.id)];
const afterPosition = (at: unknown, id: unknown) => sql`(${shownAt}, ${labOrders.id}) < (${at}::timestamptz, ${id})`;
const placeholder = (name: string) => sql.placeholder(name);

/**
 * The pages without a search, each built once (server/db/prepared.ts): a photographer's own
 * orders, and everyone's for an admin; from the start or after a position. A photographer's
 * orders need no join: every one of them is the caller's.
 */
const ownPage = perDatabase((db) => ({
  first: db.select({ order: orderColumns }).from(labOrders).where(eq(labOrders.userGuid, placeholder('user'))).orderBy(...newestFirst).limit(placeholder('limit')).prepare('orders_own_first'),
  after: db
    .select({ order: orderColumns })
    .from(labOrders)
    .where(and(eq(labOrders.userGuid, placeholder('user')), afterPosition(placeholder('at'), placeholder('id'))))
    .orderBy(...newestFirst)
    .limit(placeholder('limit'))
    .prepare('orders_own_after'),
  // The urgent ones counted in the same read of the photographer's index (meta.urgent_count).
  total: db
    .select({ n: count(), urgent: sql<number>`(count(*) filter (where ${labOrders.urgent}))::integer` })
    .from(labOrders)
    .where(eq(labOrders.userGuid, placeholder('user')))
    .prepare('orders_own_total'),
}));
const allPage = perDatabase((db) => {
  const joined = () => db.select({ order: orderColumns, photographer: photographerColumns }).from(labOrders).innerJoin(users, eq(users.guid, labOrders.userGuid));
  return {
    first: joined().orderBy(...newestFirst).limit(placeholder('limit')).prepare('orders_all_first'),
    after: joined().where(afterPosition(placeholder('at'), placeholder('id'))).orderBy(...newestFirst).limit(placeholder('limit')).prepare('orders_all_after'),
    // Every order, read from the count the triggers keep (schema/orders.ts, orderCounts): one row
    // instead of a scan of every order on every first page.
    total: db.select({ n: orderCounts.orders }).from(orderCounts).prepare('orders_all_total'),
  };
});
interface PageRows {
  rows: { order: OrderRow; photographer: Photographer }[];
  /** meta.total, asked only when needed. */
  total: () => Promise<number>;
  /**
   * meta.urgent_count when this page's reads can tell it: a photographer's unsearched list (from
   * the whole list on one page, else with the total); otherwise null, and it is counted apart.
   */
  urgent: (shown: { order: OrderRow }[], whole: boolean) => Promise<number | null>;
}

/** The caller's words against order name, status, guid and photographer. */
function searchCondition(db: Db, words: string) {
  const pattern = likePattern(words);
  // Each order costs as few comparisons as can be: photographers are matched once (a small
  // table), and the guid only when the words could be part of one.
  const photographers = db
    .select({ guid: users.guid })
    .from(users)
    .where(or(ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern), ilike(users.businessName, pattern)));
  return or(
    ilike(labOrders.orderName, pattern),
    ilike(labOrders.status, pattern),
    inArray(labOrders.userGuid, photographers),
    ...(/^[0-9a-f-]+$/i.test(words) ? [ilike(sql`${labOrders.guid}::text`, pattern)] : []),
  );
}

/** A search or an admin's filters, built per call (the plain pages are prepared once). */
async function filteredPage(db: Db, actor: Actor, page: ListPage, after: Position | null, limit: number): Promise<PageRows> {
  const words = page.search?.trim();
  const filters = and(actor.user.isAdmin ? undefined : eq(labOrders.userGuid, actor.user.guid), words ? searchCondition(db, words) : undefined, ...adminConditions(actor, page));
  const rows = await db
    .select({ order: orderColumns, photographer: photographerColumns })
    .from(labOrders)
    .innerJoin(users, eq(users.guid, labOrders.userGuid))
    .where(and(filters, after ? afterPosition(after.at, after.id) : undefined))
    .orderBy(...newestFirst)
    .limit(limit);
  return { rows, total: async () => (await db.select({ n: count() }).from(labOrders).where(filters))[0]?.n ?? 0, urgent: async () => null };
}

async function pageRows(db: Db, actor: Actor, page: ListPage, after: Position | null, limit: number): Promise<PageRows> {
  if (page.search?.trim() || adminConditions(actor, page).length) return filteredPage(db, actor, page, after, limit);
  const position = after ? { at: after.at, id: after.id } : {};
  if (actor.user.isAdmin) {
    const q = allPage(db);
    return { rows: await (after ? q.after : q.first).execute({ ...position, limit }), total: async () => (await q.total.execute())[0]?.n ?? 0, urgent: async () => null };
  }
  const q = ownPage(db);
  const user = actor.user.guid;
  const own = await (after ? q.after : q.first).execute({ ...position, user, limit });
  // The total and the urgent count come from one read, made at most once per call.
  let counted: Promise<{ n: number; urgent: number }> | null = null;
  const counts = () => (counted ??= q.total.execute({ user }).then((r) => r[0] ?? { n: 0, urgent: 0 }));
  return {
    rows: own.map(({ order }) => ({ order, photographer: actor.user })),
    total: async () => (await counts()).n,
    urgent: async (shown, whole) => (whole ? shown.filter((r) => unpackFlags(r.order.flags).urgent).length : (await counts()).urgent),
  };
}

const NO_LINKS: ListLinks = { cover: null, zip: null };

/** One card of the list: the order's summary (as orderSummary writes it) and its list fields. */
function listItem(order: OrderRow, owner: ReturnType<typeof photographerAttributes>, admin: boolean, links: ListLinks) {
  return {
    id: String(order.id),
    type: 'lab_order' as const,
    attributes: {
      id: order.id,
      guid: order.guid,
      order_name: order.orderName,
      status: order.status,
      created_at: order.createdAt,
      updated_at: order.updatedAt,
      paid_at: order.paidAt,
      ...owner,
      ...listFieldValues(admin, unpackFlags(order.flags), order, links),
    },
  };
}

/**
 * One page of the orders the caller may see, newest first: admins see every order; a
 * photographer only their own (docs/lab-rules.md §5). `meta.total` counts every match, `meta.next_cursor`
 * asks for the next page (null on the last). Keyset paging: a page costs the same at the end of
 * a 10,000-order list as at its start, and orders added meanwhile never repeat one.
 *
 * Answered as JSON text: unsearched pages come from the pages kept under their orders' version
 * (a photographer's own, the lab's for an admin) while it is unchanged (list-page-cache.ts).
 */
export async function listLabOrdersJson(deps: Pick<ServerDeps, 'db' | 'storage' | 'now'>, actor: Actor | null, page: ListPage): Promise<string> {
  if (!actor) throw unauthorized();
  const after = page.cursor ? decodeCursor(page.cursor) : null;
  const key = await keptPageKey(deps, actor, page);
  if (key === null) return JSON.stringify(await buildPage(deps, actor, page, after));
  const cache = pageCache(deps.db);
  const kept = cache.get(key);
  if (kept !== undefined) return kept;
  const json = JSON.stringify(await buildPage(deps, actor, page, after));
  cache.keep(key, json);
  return json;
}

async function buildPage(deps: Pick<ServerDeps, 'db' | 'storage' | 'now'>, actor: Actor, page: ListPage, after: Position | null) {
  const db = deps.db;
  // One more than the page: whether there is a next page, without counting.
  const { rows, total, urgent: urgentOfPage } = await pageRows(db, actor, page, after, page.perPage + 1);
  const more = rows.length > page.perPage;
  const shown = rows.slice(0, page.perPage);
  const last = shown.at(-1);
  // A first page with no page after it is the whole list: its length is the total.
  const matching = !after && !more ? shown.length : await total();
  const at = more && last ? last.order.shownAtText : undefined;

  const urgent = (await urgentOfPage(shown, !after && !more)) ?? (await urgentCount(db, actor));
  // Only covers and zips are signed (most orders of a page have neither yet).
  const admin = actor.user.isAdmin;
  const links = await Promise.all(shown.map(({ order }) => (order.coverKey || (admin && order.zipKey) ? listLinks(deps, actor, order) : NO_LINKS)));
  // A page has a few photographers (a photographer's own list just one): each is written once.
  const owners = new Map<string, ReturnType<typeof photographerAttributes>>();
  const data = shown.map(({ order, photographer }, i) => {
    let owner = owners.get(photographer.guid);
    if (!owner) owners.set(photographer.guid, (owner = photographerAttributes(photographer)));
    return listItem(order, owner, admin, links[i] ?? NO_LINKS);
  });
  return {
    data,
    meta: {
      ...listMeta(actor),
      total: matching,
      per_page: page.perPage,
      next_cursor: at && last ? encodeCursor({ at, id: last.order.id }) : null,
      urgent_count: urgent,
    },
  };
}
