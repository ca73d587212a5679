import { Workbox } from 'workbox-window';
import { create } from 'zustand';
import { getClientVersion } from '../api/client-version.ts';
import { clearVersionedCaches } from '../offline/cached-read.ts';

/** The build this page runs (vite.config.ts defines it; the server serves the same in version.json). */
export const RUNNING_VERSION: string = __APP_VERSION__;

/** Local storage keys of accounts.md §3: last cache-check time and cached client version. */
export const VERSION_KEYS = { lastCheck: 'last-cache-check', clientVersion: 'client-version' } as const;

// How often an open app asks for a newer build, besides on focus and on reconnecting: often
// enough that a lab's fix reaches photographers within the hour, rare enough to cost nothing.
const CHECK_INTERVAL_MS = 5 * 60 * 1000;

export const useAppUpdate = create<{ available: boolean }>(() => ({ available: false }));

let workbox: Workbox | null = null;

const check = () => void checkForNewVersion();

/**
 * Registers the service worker and keeps the running version in step with the server's: a
 * periodic and on-focus check, then the workbox update flow. The new version is only offered
 * once its service worker is installed and waiting, so taking it never falls back to the old
 * cached shell. Unsynced work lives in IndexedDB and survives the reload.
 */
export function startAppUpdates(): void {
  if ('serviceWorker' in navigator && import.meta.env.PROD) {
    workbox = new Workbox('/sw.js', { scope: '/' });
    workbox.addEventListener('waiting', () => useAppUpdate.setState({ available: true }));
    workbox.register().catch((err: unknown) => console.warn('service worker registration failed', err));
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
  await clearVersionedCaches();
  if (workbox) {
    // Fetches the new sw.js; its 'waiting' event then offers the update.
    await workbox.update();
  } else {
    useAppUpdate.setState({ available: true });
  }
}

/** Takes the new version: the waiting worker takes over, then the page reloads onto it. */
export function applyUpdate(): void {
  if (!workbox) {
    window.location.reload();
    return;
  }
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}
