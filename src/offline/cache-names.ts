/** Cache Storage names shared by the service worker and the page (which clears them). */
export const CACHE_NAMES = {
  /** The lab's catalogue reads: the same for every user, kept across sign-outs. */
  catalogue: 'lab-catalogue-v1',
  /** Photo thumbnails: a user's own photos, deleted at sign-out. */
  thumbnails: 'user-thumbnails-v1',
  /**
   * The papers' ICC profiles for the soft proof (src/offline/paper-profile-copy.ts): public, and
   * each URL names its content, so they outlive sign-outs and new versions of the app.
   */
  paperProfiles: 'lab-paper-profiles-v1',
} as const;

/** API reads the service worker may cache: the public catalogue, never a user's own data. */
export const CATALOGUE_PATHS = /^\/api\/v2\/(papers_with_details|products\/[^/]+\/finishing_services|price-lists|calculator_catalogue)$/;

/** Photo thumbnails' paths (the worker caches those of its own origin, src/offline/sw-routes.ts). */
export const THUMBNAIL_PATHS = /\/thumbnails?\//;

/** Caches holding one user's data: cleared when a session ends. */
export const USER_CACHES: readonly string[] = [CACHE_NAMES.thumbnails];

/** Caches to drop when a new version of the app arrives (their format may have changed). */
export const VERSIONED_CACHES: readonly string[] = [CACHE_NAMES.catalogue];

// The helpers below touch Cache Storage only, not IndexedDB: the app shell calls them without
// pulling Dexie into the first download.

/** A user's cached files go at sign-out (src/offline/cached-read.ts clears their kept reads). */
export async function clearUserCaches(): Promise<void> {
  if (typeof caches !== 'undefined') await Promise.all(USER_CACHES.map((name) => caches.delete(name)));
}

/** A new app version: drop caches whose format may have changed. */
export async function clearVersionedCaches(): Promise<void> {
  if (typeof caches !== 'undefined') await Promise.all(VERSIONED_CACHES.map((name) => caches.delete(name)));
}

/**
 * Set by the service worker on every answer it serves from its cache: such an answer proves
 * nothing about reaching the lab, so the connectivity store ignores it (src/offline/connectivity.ts).
 */
export const SERVED_FROM_CACHE_HEADER = 'x-served-from-cache';
