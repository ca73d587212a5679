/**
 * Screens load their code on first use (src/app/router.tsx). A page opened before a deploy, and
 * not yet under the service worker, may then ask for a chunk the server no longer has: one
 * reload fetches the new build, whose chunks match. Offline, or failing again right after
 * such a reload, the route's error screen stays and says what happened.
 */
const RELOADED_AT_KEY = 'stale-chunk-reload-at';

// A second failure this soon after the reload is a real fault, not a deploy: no reload loop.
const RETRY_WINDOW_MS = 30_000;

export function reloadOnStaleChunks(): void {
  window.addEventListener('vite:preloadError', () => {
    if (!navigator.onLine) return;
    const last = Number(sessionStorage.getItem(RELOADED_AT_KEY) ?? 0);
    if (Date.now() - last < RETRY_WINDOW_MS) return;
    sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
    // The address is already the screen's the user went to (navigations change it at once).
    window.location.reload();
  });
}
