import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { login, logout, logoutAllSessions } from '../services/auth-service.ts';
import { sessionAnswerSchema, successSchema } from '../../src/contract/shapes.ts';
import { errorAnswers } from '../http/errors.ts';

const loginBody = z.object({
  email: z.string().trim().min(1, 'Enter your email address.').max(320),
  password: z.string().min(1, 'Enter your password.').max(1000),
});

export const sessionRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      API.login,
      {
        schema: { tags: ['session'], summary: 'Sign in', body: loginBody, response: { ...errorAnswers(401), 200: sessionAnswerSchema } },
        // Per-address limit (LOGIN_RATE_LIMIT); the per-account limit lives in the auth service.
        config: { public: true, idempotency: false, rateLimit: { max: deps.config.loginRateLimit, timeWindow: 60_000 } },
      },
      (request) => login(deps, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }),
    );

    app.delete(
      API.logout,
      // Always carried out, never answered from a stored replay: an answer saying "signed out" must
      // be true of the session asking (a replayed key must not leave another session signed in).
      { schema: { tags: ['session'], summary: 'End this session', response: { 200: successSchema } }, config: { idempotency: false } },
      async (request) => {
        await logout(deps.db, request.actor);
        return { success: true as const };
      },
    );

    app.delete(
      API.logoutAllSessions,
      { schema: { tags: ['session'], summary: 'End every session of this user', response: { 200: successSchema } }, config: { idempotency: false } },
      async (request) => {
        await logoutAllSessions(deps.db, request.actor);
        return { success: true as const };
      },
    );
  };
