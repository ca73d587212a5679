import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PREFIX, isApiPath } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { createAuthenticator, hashToken, type Actor } from '../services/auth-service.ts';
import { createActorCache } from './actor-cache.ts';
import { unauthorized } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller, or null; services decide what null may do. */
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /**
     * Anyone may call this route, signed in or not (status, the catalogue, sign-in, sign-up,
     * password reset...). Every other API route answers 401 without a valid session, and the
     * API document lists it with the token as its security.
     */
    public?: true;
  }
}

/** Whether a route is open to callers without a session (its `config.public`). */
export const isPublicRoute = (config: { public?: true } | undefined) => config?.public === true;

/** The session token travels in a header named `token` (docs/accounts.md §7). */
export const TOKEN_HEADER = 'token';

// Reads may reuse a session lookup made a moment ago (actor-cache.ts); every other call looks
// its session up afresh and, being a change, makes this process forget the lookups it kept.
const READS = new Set(['GET', 'HEAD']);
const CHANGES_NOTHING = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Resolves the `token` header of every API call to its actor before the route runs. */
export function registerAuth(app: FastifyInstance, deps: ServerDeps): void {
  app.decorateRequest('actor', null);
  const authenticate = createAuthenticator(deps);
  const kept = createActorCache(() => (deps.now?.() ?? new Date()).getTime());

  // Callback-style hooks with the cheap checks first: most requests (the client's files, public
  // calls, reads) need nothing here, and then cost no promise and no turn of the event loop.
  const resolveActor = async (request: FastifyRequest, tokenHash: string) => {
    if (!READS.has(request.method)) {
      request.actor = await authenticate(tokenHash);
      return;
    }
    const started = kept.lookupStarted();
    request.actor = await authenticate(tokenHash);
    if (request.actor) kept.keep(tokenHash, request.actor, started);
  };
  app.addHook('onRequest', (request, _reply, done) => {
    const token = request.headers[TOKEN_HEADER];
    if (typeof token !== 'string' || token.length === 0 || token.length > 200 || !request.url.startsWith(API_PREFIX)) return done();
    const tokenHash = hashToken(token);
    // A kept lookup answers without waiting (the common read of a signed-in app).
    const actor = READS.has(request.method) ? kept.get(tokenHash) : null;
    if (actor) {
      request.actor = actor;
      return done();
    }
    resolveActor(request, tokenHash).then(() => done(), done);
  });

  // After validation, as the services' own check was: a malformed request is still told what is
  // wrong with it (422) first. Unknown API paths keep their 404 (no route, or the client files'
  // wildcard), as do the store's signed URLs: only API routes are checked.
  app.addHook('preHandler', (request, _reply, done) => {
    const route = request.routeOptions.url;
    if (request.actor || route === undefined || !isApiPath(route) || isPublicRoute(request.routeOptions.config)) return done();
    done(unauthorized());
  });

  // A change forgets the kept lookups before its answer leaves, so the caller's next read sees
  // it; and again when the call ends, for one whose answer never left (the caller went away).
  const forgetAfterChange = (request: FastifyRequest) => {
    if (!CHANGES_NOTHING.has(request.method) && request.url.startsWith(API_PREFIX)) kept.forgetAll();
  };
  app.addHook('onSend', (request, _reply, payload, done) => {
    forgetAfterChange(request);
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    forgetAfterChange(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    forgetAfterChange(request);
    done();
  });
}
