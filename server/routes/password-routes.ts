import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { passwordEndpoints } from '../../src/contract/password.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { forgotPassword, resetPassword, validateChallengeToken } from '../services/password-reset-service.ts';

/** Forgotten passwords: a token by mail, checked, then the new password (docs/accounts.md §4). */
export const passwordRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Each of these reveals whether an account exists or lets a token be guessed: rate-limited.
    const rateLimit = { max: deps.config.lookupRateLimit, timeWindow: 60_000 };
    const forgot = routeOf(passwordEndpoints.forgotPassword);
    const validate = routeOf(passwordEndpoints.validateChallengeToken);
    const reset = routeOf(passwordEndpoints.resetPassword);

    app.route({ ...forgot, config: { ...forgot.config, rateLimit }, handler: (request) => forgotPassword(deps, request.body.email) });

    app.route({ ...validate, config: { ...validate.config, rateLimit }, handler: (request) => validateChallengeToken(deps, request.body) });

    app.route({
      ...reset,
      config: { ...reset.config, rateLimit, idempotency: false },
      handler: (request) => resetPassword(deps, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }),
    });
  };
