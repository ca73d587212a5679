import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../src/domain/paths.ts';

// The app keeps what it needs offline in its service worker and IndexedDB, per user; no HTTP
// cache (the browser's, a proxy's) may keep an API answer, which may hold one user's data.
const NO_STORE = 'no-store';

/**
 * Every API answer, errors included, is `no-store` unless its route says otherwise (only the
 * public catalogue does: server/http/cached-answer.ts).
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith(API_PREFIX) && !reply.hasHeader('cache-control')) reply.header('cache-control', NO_STORE);
    done(null, payload);
  });
}
