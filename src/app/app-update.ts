import { create } from 'zustand';
import { getClientVersion } from '../api/client-version.ts';
import { clearVersionedCaches } from '../offline/cache-names.ts';

/** The build this page runs (vite.config.ts defines it; the server serves the same in version.json). */
export const RUNNING_VERSION: string = __APP_VERSION__;

/** Local storage keys of accounts.md §3: last cache-check time and cached client version. */
export const VERSION_KEYS = { lastCheck: 'last-cache-check', clientVersion: 'client-version' } as const;

// How often an open app asks for a newer build, besides on focus and on reconnecting: often
// enough that a lab's fix reaches photographers within the hour, rare enough to cost nothing.
const CHECK_INTERVAL_MS = 5 * 60 * 1000;

export const useAppUpdate = create<{ available: boolean }>(() => ({ available: false }));

// The service worker's registration, once made (production builds only). The browser's own API,
// not workbox-window: for the three calls used here the library would be in every first load.
let registration: ServiceWorkerRegistration | null = null;

/** Offers the update once a new worker is installed and waits (not on the first install). */
function offerWhenWaiting(reg: ServiceWorkerRegistration): void {
  const offer = () => {
    if (reg.waiting && navigator.serviceWorker.controller) useAppUpdate.setState({ available: true });
  };
  offer();
  reg.addEventListener('updatefound', () => {
    const installing = reg.installing;
    installing?.addEventListener('statechange', () => installing.state === 'installed' && offer());
  });
}

const check = () => void checkForNewVersion();

/**
 * Registers the service worker and keeps the running version in step with the server's: a
 * periodic and on-focus check, then the workbox update flow. The new version is only offered
 * once its service worker is installed and waiting, so taking it never falls back to the old
 * cached shell. Unsynced work lives in IndexedDB and survives the reload.
 */
export function startAppUpdates(): void {
  if ('serviceWorker' in navigator && import.meta.env.PROD) {
    // When another tab accepts a new version, its worker takes every tab: follow it here too,
    // or this tab would run old code against the new worker. (Not on the first install.)
    const hadController = navigator.serviceWorker.controller !== null;
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (hadController) window.location.reload();
    });
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(
      (reg) => {
        registration = reg;
        offerWhenWaiting(reg);
      },
      (err: unknown) => console.warn('service worker registration failed', err),
    );
    // A page that loaded while the first worker was activating is not taken by it: ask to be.
    void navigator.serviceWorker.ready.then((ready) => {
      if (!navigator.serviceWorker.controller) ready.active?.postMessage({ type: 'CLAIM' });
    });
  }
  window.setInterval(check, CHECK_INTERVAL_MS);
  window.addEventListener('focus', check);
  window.addEventListener('online', check);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && check());
  check();
}

export async function checkForNewVersion(): Promise<void> {
  let serverVersion: string;
  try {
    serverVersion = (await getClientVersion()).version;
  } catch {
    return; // Offline or no build: the running version stays.
  }
  localStorage.setItem(VERSION_KEYS.lastCheck, String(Date.now()));
  localStorage.setItem(VERSION_KEYS.clientVersion, serverVersion);
  if (serverVersion === RUNNING_VERSION) return;
  if (registration) {
    // Fetches the new sw.js; once it is installed and waiting, the update is offered.
    await registration.update().catch((err: unknown) => console.warn('service worker update failed', err));
  } else {
    useAppUpdate.setState({ available: true });
  }
}

/**
 * Takes the new version: stale caches go, the waiting worker takes over, and the page reloads
 * onto it (through the controllerchange listener above, like every other open tab).
 */
export async function applyUpdate(): Promise<void> {
  await clearVersionedCaches();
  const waiting = registration ? (await navigator.serviceWorker.getRegistration())?.waiting : null;
  if (!registration || !waiting) {
    // No worker waits (another tab already took the update, or no service worker): a reload does it.
    window.location.reload();
    return;
  }
  // The worker (workers/sw.ts) takes over on this message; controllerchange then reloads.
  // A ServiceWorker's postMessage has no target origin (the rule mistakes it for a window's).
  // oxlint-disable-next-line unicorn/require-post-message-target-origin
  waiting.postMessage({ type: 'SKIP_WAITING' });
}
