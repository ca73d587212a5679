import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { createAuthenticator, type Actor } from '../services/auth-service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller, or null; services decide what null may do. */
    actor: Actor | null;
  }
}

/** The session token travels in a header named `token` (accounts.md §7). */
export const TOKEN_HEADER = 'token';

/** Resolves the `token` header of every API call to its actor before the route runs. */
export function registerAuth(app: FastifyInstance, deps: ServerDeps): void {
  app.decorateRequest('actor', null);
  const authenticate = createAuthenticator(deps);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith(API_PREFIX)) return;
    const token = request.headers[TOKEN_HEADER];
    if (typeof token === 'string' && token.length > 0 && token.length <= 200) {
      request.actor = await authenticate(token);
    }
  });
}
