import { randomBytes } from 'node:crypto';
import { and, count, eq, isNotNull, isNull } from 'drizzle-orm';
import { shopConnections, users } from '../db/schema.ts';
import { refusingDuplicates } from '../db/unique-violation.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, conflict, notFound, tooManyRequests, unauthorized, validationError } from '../http/errors.ts';
import type { ShopJson } from './account-reads.ts';
import type { Actor } from './auth-service.ts';
import { verifyShopifyQuery } from './shopify-request.ts';

export const UNKNOWN_CONNECTION_CODE = 'This connection code does not exist. You can find your code on your account profile page.';
export const NOT_FROM_SHOPIFY = 'Open this page from your Shopify admin (Apps → Print lab) to connect your shop.';
const SHOP_TAKEN = 'This shop is already connected to another lab account. Contact the lab to move it.';
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;
// Requests waiting for one photographer's confirmation: plenty for real shops, a cap for a code
// that leaked and is being used to fill the account page.
const MAX_PENDING_PER_ACCOUNT = 20;

/** The photographer's connection code, made the first time it is asked for (e.g. 7KQ2-M9XD-4HTC). */
export async function connectionCodeOf(deps: ServerDeps, userGuid: string): Promise<string> {
  const [row] = await deps.db.select({ code: users.shopConnectionCode }).from(users).where(eq(users.guid, userGuid));
  if (row?.code) return row.code;
  const code = randomBytes(6)
    .toString('base64url')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '7')
    .replace(/(.{4})(?=.)/g, '$1-');
  await deps.db.update(users).set({ shopConnectionCode: code }).where(and(eq(users.guid, userGuid), isNull(users.shopConnectionCode)));
  const [after] = await deps.db.select({ code: users.shopConnectionCode }).from(users).where(eq(users.guid, userGuid));
  return after?.code ?? code;
}

/**
 * The account's shops, oldest first: the connected ones (confirmed: only those do anything), and
 * the requests waiting for the photographer's CONFIRM on /account. From the profile's one read.
 */
export function shopLists(rows: ShopJson[]) {
  return {
    shops: rows.filter((r) => r.confirmed).map((r) => r.shop),
    pending: rows.filter((r) => !r.confirmed).map((r) => ({ id: r.id, shop: r.shop, requested_at: new Date(r.connectedAt).toISOString() })),
  };
}

const normaliseShop = (shop: string) =>
  shop
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '');

/** Whose account a confirmed shop belongs to, if anyone's. */
async function holderOf(deps: ServerDeps, shop: string): Promise<string | undefined> {
  const [row] = await deps.db
    .select({ userGuid: shopConnections.userGuid })
    .from(shopConnections)
    .where(and(eq(shopConnections.shopDomain, shop), isNotNull(shopConnections.confirmedAt)));
  return row?.userGuid;
}

/** Confirms one connection; the database's unique rule settles two confirmations racing for a shop. */
async function confirmRow(deps: ServerDeps, id: string): Promise<void> {
  await refusingDuplicates(
    () =>
      deps.db
        .update(shopConnections)
        .set({ confirmedAt: deps.now?.() ?? new Date() })
        .where(and(eq(shopConnections.id, id), isNull(shopConnections.confirmedAt))),
    { shop_connections_confirmed_shop_key: () => conflict(SHOP_TAKEN) },
  );
}

/**
 * /shopify-connect: the shop asks to be linked to the account owning the code. With the Shopify
 * app's secret configured, Shopify's signed query proves the shop and it is connected at once;
 * without it, the request waits for the photographer to confirm it on their account page.
 */
export async function connectShop(deps: ServerDeps, input: { code: string; shop: string; shopify_query?: string | undefined }) {
  const shop = normaliseShop(input.shop);
  if (!SHOP_DOMAIN.test(shop)) throw validationError('The shop address must look like your-shop.myshopify.com.');
  const secret = deps.config.shopifyApiSecret;
  // Checked before the code, so unsigned calls learn nothing about which codes exist.
  if (secret) {
    const proof = input.shopify_query ? verifyShopifyQuery(input.shopify_query, secret, deps.now?.() ?? new Date()) : null;
    if (!proof || normaliseShop(proof.shop) !== shop) throw new HttpError(403, 'Forbidden', NOT_FROM_SHOPIFY);
  }
  const code = input.code.trim().toUpperCase();
  const [owner] = await deps.db.select({ guid: users.guid }).from(users).where(eq(users.shopConnectionCode, code));
  if (!owner) throw notFound(UNKNOWN_CONNECTION_CODE);
  // A shop stays with the account that it was confirmed for: a code cannot move someone else's shop.
  const holder = await holderOf(deps, shop);
  if (holder === owner.guid) return { success: true as const, shop, status: 'connected' as const };
  if (holder) throw conflict(SHOP_TAKEN);
  if (!secret) {
    const [waiting] = await deps.db.select({ n: count() }).from(shopConnections).where(and(eq(shopConnections.userGuid, owner.guid), isNull(shopConnections.confirmedAt)));
    if ((waiting?.n ?? 0) >= MAX_PENDING_PER_ACCOUNT) throw tooManyRequests('Too many shops are waiting for this account to confirm them. Confirm or decline them on the account page first.');
  }
  await deps.db.insert(shopConnections).values({ userGuid: owner.guid, shopDomain: shop }).onConflictDoNothing();
  if (!secret) return { success: true as const, shop, status: 'pending' as const };
  const [row] = await deps.db
    .select({ id: shopConnections.id })
    .from(shopConnections)
    .where(and(eq(shopConnections.userGuid, owner.guid), eq(shopConnections.shopDomain, shop)));
  if (!row) throw conflict(SHOP_TAKEN);
  await confirmRow(deps, row.id);
  return { success: true as const, shop, status: 'connected' as const };
}

async function ownConnection(deps: ServerDeps, actor: Actor | null, id: string) {
  if (!actor) throw unauthorized();
  const [row] = await deps.db.select().from(shopConnections).where(and(eq(shopConnections.id, id), eq(shopConnections.userGuid, actor.user.guid)));
  if (!row) throw notFound('This shop connection does not exist.');
  return row;
}

/** CONFIRM on /account: the photographer vouches for a waiting connection. */
export async function confirmShopConnection(deps: ServerDeps, actor: Actor | null, id: string) {
  const row = await ownConnection(deps, actor, id);
  if (!row.confirmedAt) {
    const holder = await holderOf(deps, row.shopDomain);
    if (holder && holder !== row.userGuid) throw conflict(SHOP_TAKEN);
    await confirmRow(deps, row.id);
  }
  return { success: true as const, shop: row.shopDomain };
}

/** DECLINE on /account: a request the photographer did not make is removed. */
export async function declineShopConnection(deps: ServerDeps, actor: Actor | null, id: string) {
  const row = await ownConnection(deps, actor, id);
  if (row.confirmedAt) throw conflict('This shop is connected; contact the lab to disconnect it.');
  await deps.db.delete(shopConnections).where(and(eq(shopConnections.id, row.id), isNull(shopConnections.confirmedAt)));
  return { success: true as const };
}
