import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { shopConnections, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { conflict, notFound, validationError } from '../http/errors.ts';

export const UNKNOWN_CONNECTION_CODE = 'This connection code does not exist. You can find your code on your account profile page.';
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;

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

export async function connectedShops(deps: ServerDeps, userGuid: string): Promise<string[]> {
  const rows = await deps.db.select({ shop: shopConnections.shopDomain }).from(shopConnections).where(eq(shopConnections.userGuid, userGuid)).orderBy(asc(shopConnections.connectedAt));
  return rows.map((r) => r.shop);
}

/** /shopify-connect: the shop named by the platform is recorded for the account owning the code. */
export async function connectShop(deps: ServerDeps, input: { code: string; shop: string }) {
  const shop = input.shop.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  if (!SHOP_DOMAIN.test(shop)) throw validationError('The shop address must look like your-shop.myshopify.com.');
  const code = input.code.trim().toUpperCase();
  const [owner] = await deps.db.select({ guid: users.guid }).from(users).where(eq(users.shopConnectionCode, code));
  if (!owner) throw notFound(UNKNOWN_CONNECTION_CODE);
  // A shop stays with the account that connected it first: a code cannot move someone else's shop.
  await deps.db.insert(shopConnections).values({ userGuid: owner.guid, shopDomain: shop }).onConflictDoNothing();
  const [holder] = await deps.db.select({ userGuid: shopConnections.userGuid }).from(shopConnections).where(eq(shopConnections.shopDomain, shop));
  if (holder?.userGuid !== owner.guid) throw conflict('This shop is already connected to another lab account. Contact the lab to move it.');
  return { success: true as const, shop };
}
