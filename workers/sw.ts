/// <reference lib="webworker" />
/**
 * The service worker (vite-plugin-pwa, injectManifest): precaches the built shell, answers every
 * navigation with the shell so the app opens offline, and caches catalogue reads and thumbnails.
 * Signed-in API reads are never cached here: the app keeps those in IndexedDB, per user.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import type { WorkboxPlugin } from 'workbox-core/types.js';
import { CACHE_NAMES, SERVED_FROM_CACHE_HEADER } from '../src/offline/cache-names.ts';
import { labDb } from '../src/offline/db.ts';
import { OUTBOX_SYNC_TAG, drainEveryOwner } from '../src/offline/outbox-background.ts';
import { tokenRequester } from '../src/offline/sw-request.ts';
import { isCatalogueRead, isOwnThumbnail } from '../src/offline/sw-routes.ts';

declare const self: ServiceWorkerGlobalScope;

// A lab that has not answered the catalogue in this long is as good as offline: the copy kept
// here is shown (marked as such) rather than a screen left waiting on a dead link.
const CATALOGUE_NETWORK_TIMEOUT_S = 3;
// A few thousand thumbnails cover several large orders; a month covers a long job.
const THUMBNAIL_MAX_ENTRIES = 3000;
const THUMBNAIL_MAX_AGE_S = 30 * 24 * 60 * 60;

/**
 * Marks every answer served from a runtime cache: the page must not take it as a sign that the
 * lab answered (src/offline/connectivity.ts ignores marked answers).
 */
const markServedFromCache: WorkboxPlugin = {
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (!cachedResponse) return cachedResponse;
    const headers = new Headers(cachedResponse.headers);
    headers.set(SERVED_FROM_CACHE_HEADER, '1');
    return new Response(cachedResponse.body, { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
  },
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// On the first visit there is no older worker to wait for: take the page at once, so the app
// already opens offline next time. Later versions wait until the user accepts them (SKIP_WAITING).
clientsClaim();

// Every screen path answers with the shell; API calls and files are never navigations to it.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /\.[a-z0-9]+$/i] }));

// Own-origin GETs only: requests to the object store pass the worker by (src/offline/sw-routes.ts).
// Network first, not stale-while-revalidate: a lab's change (a price, a paper's profile removed)
// must show on the next page load, not the one after; an unchanged catalogue costs an empty 304.
registerRoute(
  (match) => isCatalogueRead(match, self.location.origin),
  new NetworkFirst({ cacheName: CACHE_NAMES.catalogue, networkTimeoutSeconds: CATALOGUE_NETWORK_TIMEOUT_S, plugins: [markServedFromCache] }),
);

registerRoute(
  (match) => isOwnThumbnail(match, self.location.origin),
  new CacheFirst({
    cacheName: CACHE_NAMES.thumbnails,
    plugins: [new ExpirationPlugin({ maxEntries: THUMBNAIL_MAX_ENTRIES, maxAgeSeconds: THUMBNAIL_MAX_AGE_S }), markServedFromCache],
  }),
);

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  // The page asks the waiting worker to take over once the user accepts the new version.
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  // clients.claim() passes over a page still loading as this worker activates (a navigation made
  // during the install); such a page asks once it runs, or it would not work offline until the
  // next navigation.
  if (type === 'CLAIM') event.waitUntil(self.clients.claim());
});

/** Background Sync's event (not in TypeScript's worker library). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

// Changes made offline are sent even after the app was closed: the page registers this tag while
// changes wait (src/offline/outbox-sync.ts), and the browser fires it once a connection is back.
// The drain is the page's own (src/offline/outbox-drain.ts); a rejection asks the browser to retry.
self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== OUTBOX_SYNC_TAG) return;
  sync.waitUntil(
    drainEveryOwner(labDb, (token) => tokenRequester(token)).then((finished) => {
      if (!finished) throw new Error('changes still waiting to be sent');
    }),
  );
});
