import { and, asc, eq, gt, ilike, ne, or, sql } from 'drizzle-orm';
import { toCents, toDollars } from '../../src/domain/money.ts';
import { adminActions, creditLedger, labOrders, sessions, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, forbidden, notFound, unauthorized, validationError } from '../http/errors.ts';
import { createSession, normaliseEmail, type Actor, type UserRow } from './auth-service.ts';
import { listMeta } from './lab-orders-service.ts';
import { requireAdmin } from './admin-guard.ts';
import { MIN_PASSWORD_LENGTH, hashPassword } from './passwords.ts';

/** The photographers list and the admin's tools on a photographer (docs/api.md §6; docs/accounts.md). */

// Searches start at this many characters (docs/orders.md §5): fewer match nearly everyone.
export const MIN_SEARCH = 3;
// find_photographer answers a short pick list.
const FIND_LIMIT = 20;
export const ADMIN_PASSWORD_RULE = `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
export const PASSWORDS_DIFFER = 'The password and its confirmation do not match.';
export const EMAIL_IN_USE = 'Email in use';
const CREDIT_RULE = 'Enter the credit as an amount in dollars with at most 2 decimals, such as 12.50.';
const STATUS_RULE = "status is 'approved' or 'not_approved'.";
const EMAIL_RULE = 'Enter a valid email address.';


const columns = {
  guid: users.guid,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  businessName: users.businessName,
  userApproved: users.userApproved,
  creditAvailableCents: users.creditAvailableCents,
  createdAt: users.createdAt,
  // Through lab_orders_user_shown_idx: a page costs one index count per row.
  // Spelled out: both tables have a guid column, and the inner one must not shadow the user's.
  orderCount: sql<number>`(select count(*)::integer from "lab_orders" o where o."user_guid" = "users"."guid")`.as('order_count'),
};
type Row = Pick<UserRow, 'guid' | 'firstName' | 'lastName' | 'email' | 'businessName' | 'userApproved' | 'creditAvailableCents' | 'createdAt'> & { orderCount: number };

export const photographerRow = (r: Row) => ({
  id: r.guid,
  type: 'photographer' as const,
  attributes: {
    guid: r.guid,
    first_name: r.firstName,
    last_name: r.lastName,
    email: r.email,
    business_name: r.businessName,
    user_approved: r.userApproved,
    credit_available: toDollars(r.creditAvailableCents),
    created_at: r.createdAt.toISOString(),
    order_count: r.orderCount,
  },
});

const likePattern = (words: string) => `%${words.replace(/[\\%_]/g, '\\$&')}%`;
function matching(search: string | undefined) {
  const words = search?.trim() ?? '';
  if (words.length < MIN_SEARCH) return undefined;
  const pattern = likePattern(words);
  return or(ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern), ilike(users.businessName, pattern), ilike(users.email, pattern));
}
// One row per photographer: lab admins are staff, not customers.
const photographersOnly = eq(users.isAdmin, false);

const encodeCursor = (email: string) => Buffer.from(email).toString('base64url');
function decodeCursor(cursor: string): string {
  const email = Buffer.from(cursor, 'base64url').toString();
  if (!email.includes('@')) throw validationError('This list position is not valid. Please reload the list.');
  return email;
}

/** GET /photographers: a page at a time, by email (unique, indexed: keyset paging). */
export async function listPhotographers(deps: Pick<ServerDeps, 'db'>, actor: Actor | null, q: { search?: string | undefined; perPage: number; cursor?: string | undefined }) {
  const admin = requireAdmin(actor);
  const filter = and(photographersOnly, matching(q.search));
  const after = q.cursor ? gt(users.email, decodeCursor(q.cursor)) : undefined;
  const rows = await deps.db.select(columns).from(users).where(and(filter, after)).orderBy(asc(users.email)).limit(q.perPage + 1);
  const more = rows.length > q.perPage;
  const shown = rows.slice(0, q.perPage);
  const [total] = await deps.db.select({ n: sql<number>`count(*)::integer` }).from(users).where(filter);
  const last = shown.at(-1);
  return { data: shown.map(photographerRow), meta: { ...listMeta(admin), total: total?.n ?? 0, per_page: q.perPage, next_cursor: more && last ? encodeCursor(last.email) : null } };
}

/** GET /find_photographer: the first matches for a pick list. */
export async function findPhotographer(deps: Pick<ServerDeps, 'db'>, actor: Actor | null, query: string) {
  requireAdmin(actor);
  const rows = await deps.db.select(columns).from(users).where(and(photographersOnly, matching(query))).orderBy(asc(users.email)).limit(FIND_LIMIT);
  return { data: rows.map(photographerRow) };
}

async function photographerByGuid(deps: Pick<ServerDeps, 'db'>, guid: string) {
  const [row] = await deps.db.select(columns).from(users).where(and(eq(users.guid, guid), photographersOnly));
  if (!row) throw notFound('This photographer does not exist.');
  return row;
}

export type AdminUserChange = { type: 'password' | 'email' | 'credit' | 'status'; value: string | number | boolean; password_confirmation?: string | undefined };

/**
 * PATCH /users/{guid} admin types: one field per update (docs/orders.md §5), each recorded in
 * admin_actions with who and when, in the transaction of the change.
 */
export async function adminUpdatePhotographer(deps: Pick<ServerDeps, 'db'>, actor: Actor | null, guid: string, change: AdminUserChange) {
  const admin = requireAdmin(actor);
  const before = await photographerByGuid(deps, guid);
  const record = (detail: string) => ({ adminGuid: admin.user.guid, userGuid: guid, kind: change.type, detail });
  const value = change.value;
  switch (change.type) {
    case 'password': {
      if (typeof value !== 'string' || value.length < MIN_PASSWORD_LENGTH) throw validationError(ADMIN_PASSWORD_RULE);
      if (value !== change.password_confirmation) throw validationError(PASSWORDS_DIFFER);
      const passwordHash = await hashPassword(value);
      await deps.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, failedLoginCount: 0, failedLoginAt: null, updatedAt: sql`now()` }).where(eq(users.guid, guid));
        // The old password no longer opens the account anywhere (an admin's session as them included).
        await tx.delete(sessions).where(eq(sessions.userGuid, guid));
        await tx.insert(adminActions).values(record('password set by the lab'));
      });
      break;
    }
    case 'email': {
      const email = typeof value === 'string' ? normaliseEmail(value) : '';
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 320) throw validationError(EMAIL_RULE);
      if (email === before.email) break;
      const [holder] = await deps.db.select({ guid: users.guid }).from(users).where(and(eq(users.email, email), ne(users.guid, guid)));
      if (holder) throw new HttpError(422, 'EmailInUse', EMAIL_IN_USE);
      await deps.db.transaction(async (tx) => {
        // The unique index decides a race with a sign-up of the same email.
        const done = await tx.update(users).set({ email, updatedAt: sql`now()` }).where(eq(users.guid, guid)).returning({ guid: users.guid }).catch(() => null);
        if (!done) throw new HttpError(422, 'EmailInUse', EMAIL_IN_USE);
        await tx.insert(adminActions).values(record(`${before.email} → ${email}`));
      });
      break;
    }
    case 'credit': {
      const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
      if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) throw validationError(CREDIT_RULE);
      const cents = toCents(text);
      await deps.db.transaction(async (tx) => {
        const [row] = await tx.select({ cents: users.creditAvailableCents }).from(users).where(eq(users.guid, guid)).for('update');
        const delta = cents - (row?.cents ?? 0);
        await tx.update(users).set({ creditAvailableCents: cents, updatedAt: sql`now()` }).where(eq(users.guid, guid));
        if (delta) await tx.insert(creditLedger).values({ userGuid: guid, amountCents: delta, reason: 'admin' });
        await tx.insert(adminActions).values(record(`${toDollars(row?.cents ?? 0).toFixed(2)} → ${toDollars(cents).toFixed(2)}`));
      });
      break;
    }
    case 'status': {
      if (value !== 'approved' && value !== 'not_approved') throw validationError(STATUS_RULE);
      const approved = value === 'approved';
      if (approved === before.userApproved) break;
      await deps.db.transaction(async (tx) => {
        await tx.update(users).set({ userApproved: approved, updatedAt: sql`now()` }).where(eq(users.guid, guid));
        await tx.insert(adminActions).values(record(value));
      });
      break;
    }
  }
  return { data: photographerRow(await photographerByGuid(deps, guid)) };
}

/** POST /login_as_user: a session of the photographer recording the admin (DELETE /logout ends only it). */
export async function loginAsUser(deps: ServerDeps, actor: Actor | null, input: { email: string }, meta: { ip?: string; userAgent?: string }) {
  const admin = requireAdmin(actor);
  const [user] = await deps.db.select().from(users).where(eq(users.email, normaliseEmail(input.email)));
  if (!user) throw notFound('No photographer has this email.');
  if (user.isAdmin) throw validationError('A lab admin cannot be logged in as.');
  const answer = await createSession(deps, user, { ...meta, impersonatorGuid: admin.user.guid });
  await deps.db.insert(adminActions).values({ adminGuid: admin.user.guid, userGuid: user.guid, kind: 'login_as', detail: null });
  return answer;
}

/** What admins did to a photographer's account, newest first (shown on the photographer page). */
export async function adminActionsOf(deps: Pick<ServerDeps, 'db'>, userGuid: string) {
  const rows = await deps.db
    .select({ action: adminActions, firstName: users.firstName, lastName: users.lastName })
    .from(adminActions)
    .leftJoin(users, eq(users.guid, adminActions.adminGuid))
    .where(eq(adminActions.userGuid, userGuid))
    .orderBy(sql`${adminActions.id} desc`)
    .limit(200);
  return rows.map(({ action, firstName, lastName }) => ({
    kind: action.kind,
    detail: action.detail,
    admin_guid: action.adminGuid,
    admin_name: firstName === null ? null : `${firstName} ${lastName ?? ''}`.trim(),
    created_at: action.createdAt.toISOString(),
  }));
}

/** GET /api_invoices: API orders by month with totals; an API vendor sees only their own. */
export async function apiInvoices(deps: Pick<ServerDeps, 'db'>, actor: Actor | null) {
  if (!actor) throw unauthorized();
  if (!actor.user.isAdmin && !actor.user.isApiVendor) throw forbidden('Only lab admins and API vendors can see API invoices.');
  const month = sql<string>`to_char(${labOrders.paidAt} at time zone 'UTC', 'YYYY-MM')`;
  const rows = await deps.db
    .select({ month, orders: sql<number>`count(*)::integer`, totalCents: sql<number>`coalesce(sum(${labOrders.totalCents} - ${labOrders.refundCents}), 0)::integer` })
    .from(labOrders)
    .where(and(eq(labOrders.apiOrder, true), sql`${labOrders.paidAt} is not null`, ne(labOrders.status, 'cancelled'), actor.user.isAdmin ? undefined : eq(labOrders.userGuid, actor.user.guid)))
    .groupBy(month)
    .orderBy(sql`1 desc`);
  return { data: rows.map((r) => ({ month: r.month, orders: r.orders, total: toDollars(r.totalCents) })) };
}
