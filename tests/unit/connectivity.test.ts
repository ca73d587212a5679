import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SERVED_FROM_CACHE_HEADER } from '../../src/offline/cache-names.ts';
import {
  PROBE_FIRST_DELAY_MS,
  PROBE_MAX_DELAY_MS,
  isOnline,
  recordResponse,
  recordRoundTrip,
  useConnectivity,
  watchConnectivity,
  whenOnline,
  type WatchTarget,
} from '../../src/offline/connectivity.ts';

const online = () => isOnline(useConnectivity.getState());
const fromLab = () => new Response('{}', { status: 200 });
const fromWorkerCache = () => new Response('{}', { status: 200, headers: { [SERVED_FROM_CACHE_HEADER]: '1' } });

/** A page whose network the test switches: the browser's flag, and whether the lab answers. */
function fakePage(opts: { browserOnline?: boolean } = {}) {
  const events = new EventTarget();
  const page = {
    browserOnline: opts.browserOnline ?? true,
    labUp: false,
    probes: [] as { url: string; init: RequestInit; at: number }[],
    fire: (type: string) => events.dispatchEvent(new Event(type)),
  };
  const target: WatchTarget = {
    addEventListener: (type, l) => events.addEventListener(type, l),
    removeEventListener: (type, l) => events.removeEventListener(type, l),
    navigatorOnline: () => page.browserOnline,
    fetch: async (url, init) => {
      page.probes.push({ url, init, at: Date.now() });
      if (!page.labUp) throw new TypeError('Failed to fetch');
      return fromLab();
    },
  };
  return { page, target };
}

let stop: (() => void) | null = null;
beforeEach(() => {
  vi.useFakeTimers();
  useConnectivity.setState({ browserOnline: true, labReachable: null, lastReachedAt: null });
});
afterEach(() => {
  stop?.();
  stop = null;
  vi.useRealTimers();
});

describe('the connectivity store', () => {
  it('is online until something shows otherwise, and follows real round trips', () => {
    expect(online()).toBe(true);
    recordRoundTrip(false);
    expect(online()).toBe(false);
    recordResponse(fromLab());
    expect(online()).toBe(true);
    expect(useConnectivity.getState().lastReachedAt).toBeTypeOf('number');
  });

  it("ignores answers the service worker served from its cache: they prove nothing about the lab", () => {
    recordRoundTrip(false);
    recordResponse(fromWorkerCache());
    expect(online()).toBe(false);
  });

  it("the browser's offline flag wins; its online flag alone proves nothing until the lab answers", async () => {
    const { page, target } = fakePage();
    stop = watchConnectivity(target);
    recordRoundTrip(true);
    page.browserOnline = false;
    page.fire('offline');
    expect(online()).toBe(false);

    recordRoundTrip(false);
    page.browserOnline = true;
    page.fire('online');
    // Back on the network, but the lab has not answered yet.
    expect(online()).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(page.probes.at(-1)).toMatchObject({ url: '/api/v2/status', init: { cache: 'no-store' } });
    expect(online()).toBe(false);

    page.labUp = true;
    page.fire('online');
    await vi.advanceTimersByTimeAsync(0);
    expect(online()).toBe(true);
  });

  it('probes while offline with a growing wait, capped, and stops as soon as the lab answers', async () => {
    const { page, target } = fakePage();
    stop = watchConnectivity(target);
    const start = Date.now();
    recordRoundTrip(false);
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    const gaps = page.probes.map((p, i) => p.at - (i === 0 ? start : (page.probes[i - 1]?.at ?? 0)));
    expect(gaps.slice(0, 5)).toEqual([PROBE_FIRST_DELAY_MS, 4_000, 8_000, 16_000, 32_000]);
    expect(Math.max(...gaps)).toBe(PROBE_MAX_DELAY_MS);

    page.labUp = true;
    await vi.advanceTimersByTimeAsync(PROBE_MAX_DELAY_MS);
    expect(online()).toBe(true);
    const count = page.probes.length;
    await vi.advanceTimersByTimeAsync(10 * PROBE_MAX_DELAY_MS);
    expect(page.probes.length).toBe(count);
  });

  it('any real call that gets an answer ends the probing at once', async () => {
    const { page, target } = fakePage();
    stop = watchConnectivity(target);
    recordRoundTrip(false);
    recordResponse(fromLab());
    await vi.advanceTimersByTimeAsync(5 * PROBE_MAX_DELAY_MS);
    expect(page.probes).toEqual([]);
  });

  it('starts offline when the browser opens without a network, and checks again when the user returns', async () => {
    const { page, target } = fakePage({ browserOnline: false });
    stop = watchConnectivity(target);
    expect(online()).toBe(false);
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_DELAY_MS);
    const count = page.probes.length;
    page.fire('focus');
    await vi.advanceTimersByTimeAsync(0);
    expect(page.probes.length).toBe(count + 1);
  });

  it('whenOnline resolves when the lab is reached again', async () => {
    recordRoundTrip(false);
    let resolved = false;
    void whenOnline().then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved).toBe(false);
    recordRoundTrip(true);
    await Promise.resolve();
    expect(resolved).toBe(true);
  });
});
