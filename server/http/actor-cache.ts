import type { Actor } from '../services/auth-service.ts';

/**
 * Session lookups kept a moment for signed-in reads (server/http/auth.ts).
 *
 * Every signed-in call looked its session up in the database: on the embedded database that was
 * about half the cost of a small read (the profile, the payment settings, the referral report).
 * A read (GET, HEAD) now reuses a lookup this process made in the last ACTOR_CACHE_TTL_MS.
 *
 * What that allows, and what it does not (docs/lab-rules.md §8):
 * - Anything that changes data (every other method) looks the session up afresh, always.
 * - On this process, any change forgets every kept lookup before its answer leaves, so a
 *   signed-out token, a changed password or email, or an admin's change to an account is seen by
 *   the very next read. A lookup that was under way while a change was made is not kept.
 * - A session ended through another API process (several processes on one PostgreSQL) is still
 *   accepted here for reads for up to ACTOR_CACHE_TTL_MS, then refused.
 */

// Long enough that an app's burst of reads (a screen's calls) costs one lookup; short enough
// that a session ended on another process stops reading here within the blink of an eye.
export const ACTOR_CACHE_TTL_MS = 2000;
// Sessions kept at most: far more than a lab has signed-in users within two seconds; the oldest
// go first beyond it, so a flood of distinct tokens cannot grow the memory.
const MAX_KEPT = 10_000;

export interface ActorCache {
  /** The kept actor of a token hash, if looked up within the TTL. */
  get(tokenHash: string): Actor | undefined;
  /** Marks the start of a lookup; pass it to `keep`. */
  lookupStarted(): number;
  /** Keeps a lookup's actor, unless data changed since the lookup started. */
  keep(tokenHash: string, actor: Actor, started: number): void;
  /** Forgets every kept lookup (data changed). */
  forgetAll(): void;
}

export function createActorCache(now: () => number): ActorCache {
  const kept = new Map<string, { actor: Actor; until: number }>();
  // Counts changes: a lookup started before the latest change may have read the old state.
  let changes = 0;
  return {
    get(tokenHash) {
      const entry = kept.get(tokenHash);
      if (!entry) return undefined;
      if (now() < entry.until) return entry.actor;
      kept.delete(tokenHash);
      return undefined;
    },
    lookupStarted: () => changes,
    keep(tokenHash, actor, started) {
      if (started !== changes) return;
      kept.delete(tokenHash);
      if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string);
      kept.set(tokenHash, { actor, until: now() + ACTOR_CACHE_TTL_MS });
    },
    forgetAll() {
      changes++;
      kept.clear();
    },
  };
}
