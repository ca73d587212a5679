/**
 * Which requests the service worker (workers/sw.ts) answers from its runtime caches. Both routes
 * take GETs of the app's own origin only. The object store is another origin when photos live in
 * S3: the upload worker's PUTs (single and multipart parts) and the presigned thumbnails go
 * straight from the browser to the bucket, never through the worker, so a PUT is never cached,
 * replayed or queued for Background Sync (whose drain sends only the outbox's API calls), and a
 * bucket image is not fetched a second time by the worker (its answer to an <img> is opaque, which
 * the cache would not keep anyway).
 */
import { CATALOGUE_PATHS, THUMBNAIL_PATHS } from './cache-names.ts';

/** What a route looks at: the request's address, method and destination (workbox's match options). */
export interface RouteRequest {
  url: URL;
  request: { method: string; destination: string };
}

const ownGet = ({ url, request }: RouteRequest, ownOrigin: string) => request.method === 'GET' && url.origin === ownOrigin;

/** The public catalogue's API reads: kept and refreshed in the background. */
export const isCatalogueRead = (req: RouteRequest, ownOrigin: string): boolean => ownGet(req, ownOrigin) && CATALOGUE_PATHS.test(req.url.pathname);

/** Thumbnails the lab serves itself (the local store): kept for offline screens. */
export const isOwnThumbnail = (req: RouteRequest, ownOrigin: string): boolean =>
  ownGet(req, ownOrigin) && req.request.destination === 'image' && THUMBNAIL_PATHS.test(req.url.pathname);
