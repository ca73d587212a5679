import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { perDatabase } from '../db/prepared.ts';
import { labOrderVersion, orderVersions } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import type { Actor } from './auth-service.ts';
import type { AdminListFilters } from './order-list-fields.ts';
import { photoSigningWindow } from './photo-service.ts';

/**
 * Orders-list pages, kept in memory as the JSON they were sent as: a photographer's under the
 * version of their orders (lab_orders' trigger writes a new one at the commit of any change to
 * one of them: migration 0021_order_versions), an admin's under the version of the lab's orders
 * as a whole (migration 0026_lab_order_version: any order's change, or a photographer's name,
 * business or email, which the admin's cards show).
 *
 * Why: building a page of 50 cards (decoding the rows, the objects, the JSON) cost the server's
 * thread about five times what sending the same bytes costs, and a photographer's list is read
 * far more often than it changes (every visit of the orders screen, every reload).
 *
 * What a kept page holds, and why it is never stale: every field of a card is a column of the
 * order (its flags and cover too, kept by triggers), so any change to it is a change of the order
 * and a new version; the photographer's own fields and roles, the page asked for and the hour the
 * cover links were signed in are part of the key. The version is read before the page is built,
 * so a page built while a change commits is kept under the version before it, which no later read
 * asks for. An admin's page is the same for every admin but for their own orders (hide_mine) and
 * their roles (meta), which are part of its key, as are its filters. The zip links an admin's
 * cards hold are signed in the same hourly window as the covers. Several server processes on one PostgreSQL each keep their own pages, each checked
 * against the database's version on every read.
 */

// Pages kept per process: a few per active photographer and admin; the oldest go first beyond it.
const MAX_BYTES = 16 * 1024 * 1024;

export interface PageCache {
  get(key: string): string | undefined;
  keep(key: string, json: string): void;
}

/** Answers kept as JSON text up to `maxBytes` in all, the least recently kept going first. */
export function createPageCache(maxBytes: number): PageCache {
  const pages = new Map<string, string>();
  let bytes = 0;
  return {
    get: (key) => pages.get(key),
    keep(key, json) {
      if (json.length > maxBytes) return;
      const old = pages.get(key);
      if (old !== undefined) {
        bytes -= old.length;
        pages.delete(key);
      }
      pages.set(key, json);
      bytes += json.length;
      // Map keeps insertion order: the first keys are the oldest kept.
      for (const [k, v] of pages) {
        if (bytes <= maxBytes) break;
        pages.delete(k);
        bytes -= v.length;
      }
    },
  };
}

/** Each database's pages (a test's database has its own). */
export const pageCache = perDatabase((): PageCache => createPageCache(MAX_BYTES));

const versionQuery = perDatabase((db) =>
  db.select({ version: orderVersions.version }).from(orderVersions).where(eq(orderVersions.userGuid, sql.placeholder('user'))).prepare('order_version'),
);

/** The version of a photographer's orders; null when none is kept (no orders yet, or just truncated). */
export async function ordersVersion(db: Db, userGuid: string): Promise<number | null> {
  const [row] = await versionQuery(db).execute({ user: userGuid });
  return row?.version ?? null;
}

const labVersionQuery = perDatabase((db) => db.select({ version: labOrderVersion.version }).from(labOrderVersion).prepare('lab_order_version'));

/** The version of the lab's orders as a whole; null when none is kept (an emptied database). */
async function labOrdersVersion(db: Db): Promise<number | null> {
  const [row] = await labVersionQuery(db).execute();
  return row?.version ?? null;
}

/** One page of the orders list as asked: the filters, the page size, where it starts, the search. */
export interface ListPage extends AdminListFilters {
  perPage: number;
  /** `meta.next_cursor` of the page before: where this page starts. */
  cursor?: string | undefined;
  /** Case-insensitive words to find in the order name, status, guid or photographer. */
  search?: string | undefined;
}

/**
 * The key a page is kept under, read with its version now; null for a page never kept: a search
 * (its matches depend on photographers' names too, and searches rarely repeat), or no version yet.
 */
export async function keptPageKey(deps: Pick<ServerDeps, 'db' | 'now'>, actor: Actor, page: ListPage): Promise<string | null> {
  if (page.search?.trim()) return null;
  const { user } = actor;
  const common = [user.guid, photoSigningWindow(deps), page.perPage, page.cursor ?? '', user.isApiVendor];
  if (user.isAdmin) {
    const version = await labOrdersVersion(deps.db);
    if (version === null) return null;
    return ['lab', version, ...common, (page.filters ?? []).join(','), page.photographerId ?? '', page.urgent === true].join('\u0000');
  }
  const version = await ordersVersion(deps.db, user.guid);
  if (version === null) return null;
  return ['own', version, ...common, user.firstName, user.lastName, user.businessName, user.email].join('\u0000');
}
