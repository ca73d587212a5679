import { create } from 'zustand';
import { onCallOutcome } from '../api/client.ts';
import { API, API_PREFIX } from '../domain/paths.ts';
import { SERVED_FROM_CACHE_HEADER } from './cache-names.ts';

/**
 * Whether the lab can be reached: ONE store (docs/architecture.md §6) that the connection indicator, the
 * orders list's offline notice, the upload queue and the outbox all read. It combines
 *  - the browser's flag: false means certainly offline; true proves nothing (a dead Wi-Fi);
 *  - the result of real round trips to the lab: any answer from the lab itself, but never one the
 *    service worker served from its cache (the worker marks those; they prove nothing);
 *  - while offline, a light probe of /api/v2/status that bypasses every cache, with backoff.
 */
export interface Connectivity {
  /** navigator.onLine, kept current by the 'online' and 'offline' events. */
  browserOnline: boolean;
  /** The last real round trip: true the lab answered, false no answer, null none yet. */
  labReachable: boolean | null;
  /** When the lab last answered for real (ms since 1970), null if not since the app opened. */
  lastReachedAt: number | null;
}

export const useConnectivity = create<Connectivity>(() => ({
  browserOnline: typeof navigator === 'undefined' ? true : navigator.onLine,
  labReachable: null,
  lastReachedAt: null,
}));

/** Online: the browser has a network and nothing has shown the lab to be out of reach. */
export const isOnline = (s: Connectivity): boolean => s.browserOnline && s.labReachable !== false;

/** Records one real round trip to the lab: it answered, or no answer came. */
export function recordRoundTrip(reached: boolean, at: number = Date.now()): void {
  const s = useConnectivity.getState();
  if (reached) useConnectivity.setState({ labReachable: true, lastReachedAt: at });
  else if (s.labReachable !== false) useConnectivity.setState({ labReachable: false });
}

/** True when the service worker answered from its cache rather than the lab (workers/sw.ts). */
export const servedFromCache = (response: Response): boolean => response.headers.get(SERVED_FROM_CACHE_HEADER) !== null;

/** Records what an answer proves: that the lab was reached, unless the worker's cache gave it. */
export function recordResponse(response: Response): void {
  if (!servedFromCache(response)) recordRoundTrip(true);
}

// Every call of the API client is a round trip: any answer from the lab proves it reachable, one
// from the service worker's cache does not, no answer at all says unreachable. Wherever the store
// is loaded, the client's calls feed it.
onCallOutcome((answer) => (answer ? recordResponse(answer) : recordRoundTrip(false)));

/** Resolves as soon as the store says online (at once if it already does): for the outbox. */
export function whenOnline(): Promise<void> {
  if (isOnline(useConnectivity.getState())) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = useConnectivity.subscribe((s) => {
      if (!isOnline(s)) return;
      stop();
      resolve();
    });
  });
}

// The first re-check after the lab stops answering: soon, since most losses are short blips.
export const PROBE_FIRST_DELAY_MS = 2_000;
// Each failed probe doubles the wait, so a long outage costs next to nothing ...
const PROBE_BACKOFF_FACTOR = 2;
// ... up to one probe a minute: the longest a returned connection goes unnoticed without an
// 'online' event, focus or another call noticing it first.
export const PROBE_MAX_DELAY_MS = 60_000;
// A status answer takes milliseconds; a probe without an answer after this is a dead link.
const PROBE_TIMEOUT_MS = 10_000;

/** What the watcher needs from the page: injectable, so tests drive it with fakes. */
export interface WatchTarget {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
  fetch(input: string, init: RequestInit): Promise<Response>;
  navigatorOnline(): boolean;
}

const pageTarget = (): WatchTarget => ({
  addEventListener: (type, listener) => (type === 'visibilitychange' ? document : window).addEventListener(type, listener),
  removeEventListener: (type, listener) => (type === 'visibilitychange' ? document : window).removeEventListener(type, listener),
  fetch: (input, init) => window.fetch(input, init),
  navigatorOnline: () => navigator.onLine,
});

/** One probe: a real round trip to the lab's status, past every cache. */
export async function probeLab(target: Pick<WatchTarget, 'fetch'>): Promise<boolean> {
  try {
    const response = await target.fetch(`${API_PREFIX}${API.status}`, { cache: 'no-store', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (servedFromCache(response)) return false;
    recordRoundTrip(true);
    return true;
  } catch {
    recordRoundTrip(false);
    return false;
  }
}

/**
 * Keeps the store current: the browser's events, and while offline a probe with backoff (at once
 * when the browser says it is back, or the user returns to the app). Returns the way to stop.
 */
export function watchConnectivity(target: WatchTarget = pageTarget()): () => void {
  let delay = PROBE_FIRST_DELAY_MS;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let probing = false;

  const schedule = (ms: number) => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => void probe(), ms);
  };
  const probe = async () => {
    timer = null;
    if (probing) return;
    probing = true;
    const reached = await probeLab(target);
    probing = false;
    if (reached || isOnline(useConnectivity.getState())) return;
    delay = Math.min(delay * PROBE_BACKOFF_FACTOR, PROBE_MAX_DELAY_MS);
    schedule(delay);
  };

  const onOnline = () => {
    useConnectivity.setState({ browserOnline: true });
    // The browser's word is not proof: ask the lab now, and start the backoff afresh.
    delay = PROBE_FIRST_DELAY_MS;
    schedule(0);
  };
  const onOffline = () => useConnectivity.setState({ browserOnline: false });
  const onReturn = () => {
    if (!isOnline(useConnectivity.getState())) {
      delay = PROBE_FIRST_DELAY_MS;
      schedule(0);
    }
  };

  // Losing the lab starts the probe; the lab answering (a probe or any call) ends it.
  const unsubscribe = useConnectivity.subscribe((s, prev) => {
    const online = isOnline(s);
    if (!online && isOnline(prev)) {
      delay = PROBE_FIRST_DELAY_MS;
      schedule(delay);
    } else if (online && timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
  });

  useConnectivity.setState({ browserOnline: target.navigatorOnline() });
  if (!isOnline(useConnectivity.getState())) schedule(delay);
  target.addEventListener('online', onOnline);
  target.addEventListener('offline', onOffline);
  target.addEventListener('focus', onReturn);
  target.addEventListener('visibilitychange', onReturn);

  return () => {
    unsubscribe();
    if (timer !== null) clearTimeout(timer);
    target.removeEventListener('online', onOnline);
    target.removeEventListener('offline', onOffline);
    target.removeEventListener('focus', onReturn);
    target.removeEventListener('visibilitychange', onReturn);
  };
}
