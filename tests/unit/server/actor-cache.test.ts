import { describe, expect, it } from 'vitest';
import { ACTOR_CACHE_TTL_MS, createActorCache } from '../../../server/http/actor-cache.ts';
import type { Actor } from '../../../server/services/auth-service.ts';

const actor = (sessionId: string) => ({ sessionId, user: { guid: `user-${sessionId}` } }) as unknown as Actor;

describe('the kept session lookups', () => {
  it('keep a lookup for the TTL, then forget it', () => {
    const clock = { now: 1_000 };
    const cache = createActorCache(() => clock.now);
    cache.keep('a', actor('a'), cache.lookupStarted());
    expect(cache.get('a')?.sessionId).toBe('a');
    expect(cache.get('b')).toBeUndefined();
    clock.now += ACTOR_CACHE_TTL_MS - 1;
    expect(cache.get('a')?.sessionId).toBe('a');
    clock.now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('forget everything at a change, and never keep a lookup that began before it', () => {
    const cache = createActorCache(() => 0);
    cache.keep('a', actor('a'), cache.lookupStarted());
    const started = cache.lookupStarted();
    // A change happens while the lookup of 'b' is under way: it may have read the old state.
    cache.forgetAll();
    cache.keep('b', actor('b'), started);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    cache.keep('b', actor('b'), cache.lookupStarted());
    expect(cache.get('b')?.sessionId).toBe('b');
  });

  it('hold at most 10,000 sessions, the oldest going first', () => {
    const cache = createActorCache(() => 0);
    for (let i = 0; i <= 10_000; i++) cache.keep(`t${i}`, actor(`s${i}`), cache.lookupStarted());
    expect(cache.get('t0')).toBeUndefined();
    expect(cache.get('t1')?.sessionId).toBe('s1');
    expect(cache.get('t10000')?.sessionId).toBe('s10000');
  });
});
