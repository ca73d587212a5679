import { lt, sql } from 'drizzle-orm';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Db } from '../db/client.ts';
import { rateLimitHits } from '../db/schema.ts';

/** What @fastify/rate-limit expects back from a store: hits so far in the window, ms left in it. */
interface Hits {
  current: number;
  ttl: number;
}
type Callback = (err: Error | null, res: Hits) => void;

/**
 * What @fastify/rate-limit really passes to `child`: the route's merged limit options with the
 * route under `routeInfo` (its type declaration says RouteOptions, which is not what arrives).
 */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * Counts one hit of `key` on `bucket`, atomically in one statement: the row is locked by the
 * upsert, so hits from every API process on the same database add up exactly. A hit after the
 * window has ended starts a new window (count 1), as the library's own in-memory store does.
 */
export async function countHit(db: Db, bucket: string, key: string, windowMs: number, now: Date): Promise<Hits> {
  const ends = new Date(now.getTime() + windowMs);
  const expired = lt(rateLimitHits.windowEndsAt, now);
  const [row] = await db
    .insert(rateLimitHits)
    .values({ bucket, key, count: 1, windowEndsAt: ends })
    .onConflictDoUpdate({
      target: [rateLimitHits.bucket, rateLimitHits.key],
      set: {
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimitHits.count} + 1 END`,
        windowEndsAt: sql`CASE WHEN ${expired} THEN excluded.window_ends_at ELSE ${rateLimitHits.windowEndsAt} END`,
      },
    })
    .returning({ count: rateLimitHits.count, windowEndsAt: rateLimitHits.windowEndsAt });
  if (!row) throw new Error('rate limit row not written');
  return { current: row.count, ttl: Math.max(0, row.windowEndsAt.getTime() - now.getTime()) };
}

/** Forgets windows that have ended (the housekeeping job); a later hit would reset them anyway. */
export async function purgeRateLimits(db: Db, now = new Date()): Promise<void> {
  await db.delete(rateLimitHits).where(lt(rateLimitHits.windowEndsAt, now));
}

/**
 * A store class for @fastify/rate-limit (its `store` option takes a class it constructs itself,
 * so the database is closed over here). Each rate-limited route gets a child store whose bucket
 * is the route, so the login limit and the lookup limit count separately, as they did in memory.
 */
export function databaseRateLimitStore(db: Db, clock: () => Date = () => new Date()) {
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly bucket: string;

    // The library constructs the root store with its options, which this store does not need.
    constructor(_options?: unknown, bucket = 'global') {
      this.bucket = bucket;
    }

    incr(key: string, cb: Callback, timeWindow: number): void {
      countHit(db, this.bucket, key, timeWindow, clock()).then(
        (hits) => cb(null, hits),
        (err: unknown) => cb(err instanceof Error ? err : new Error(String(err)), { current: 0, ttl: 0 }),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): DatabaseRateLimitStore {
      const route = (routeOptions as unknown as ChildOptions).routeInfo;
      const method = [route?.method ?? ''].flat().join(',');
      return new DatabaseRateLimitStore(undefined, `${method} ${route?.url ?? ''}`.trim());
    }
  };
}
