/**
 * The file the build writes (scripts/route-preloads.ts, a Vite plugin) and client-files.ts reads:
 * screen path → files to preload. Here, not in scripts/, because the server never imports scripts.
 */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';
