import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { perDatabase } from '../db/prepared.ts';
import { orderVersions } from '../db/schema.ts';

/**
 * A photographer's orders-list pages, kept in memory as the JSON they were sent as, under the
 * version of their orders (lab_orders' trigger writes a new one at the commit of any change to
 * one of them: migration 0021_order_versions).
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
 * asks for. Several server processes on one PostgreSQL each keep their own pages, each checked
 * against the database's version on every read.
 */

// Pages kept per process: a few per active photographer; the oldest go first beyond it.
const MAX_BYTES = 16 * 1024 * 1024;

export interface PageCache {
  get(key: string): string | undefined;
  keep(key: string, json: string): void;
}

function createPageCache(maxBytes: number): PageCache {
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
