import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionEndpoints } from '../../src/contract/session.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { login, logout, logoutAllSessions } from '../services/auth-service.ts';

export const sessionRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const signIn = routeOf(sessionEndpoints.login);
    app.route({
      ...signIn,
      // Per-address limit (LOGIN_RATE_LIMIT); the per-account limit lives in the auth service.
      config: { ...signIn.config, idempotency: false, rateLimit: { max: deps.config.loginRateLimit, timeWindow: 60_000 } },
      handler: (request) => login(deps, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }),
    });

    app.route({
      ...routeOf(sessionEndpoints.logout),
      // Always carried out, never answered from a stored replay: an answer saying "signed out" must
      // be true of the session asking (a replayed key must not leave another session signed in).
      config: { idempotency: false },
      handler: async (request) => {
        await logout(deps.db, request.actor);
        return { success: true as const };
      },
    });

    app.route({
      ...routeOf(sessionEndpoints.logoutAllSessions),
      config: { idempotency: false },
      handler: async (request) => {
        await logoutAllSessions(deps.db, request.actor);
        return { success: true as const };
      },
    });
  };
