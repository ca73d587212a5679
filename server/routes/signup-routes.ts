import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signupEndpoints } from '../../src/contract/signup.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { checkForEmail, checkReferralCode, signUp, updateNewUser } from '../services/signup-service.ts';

export const signupRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Lookups that reveal whether an account or code exists (LOOKUP_RATE_LIMIT a minute). Anyone
    // may sign up or look a code up: limited per address.
    const rateLimit = { max: deps.config.lookupRateLimit, timeWindow: 60_000 };
    const newAccount = routeOf(signupEndpoints.signUp);
    const emailLookup = routeOf(signupEndpoints.checkForEmail);
    const codeLookup = routeOf(signupEndpoints.checkReferralCode);

    app.route({
      ...newAccount,
      config: { ...newAccount.config, idempotency: false, rateLimit },
      handler: (request) => signUp(deps, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }),
    });

    app.route({
      ...emailLookup,
      config: { ...emailLookup.config, rateLimit },
      handler: async (request) => {
        await checkForEmail(deps, request.body.email);
        return { success: true as const };
      },
    });

    app.route({
      ...codeLookup,
      config: { ...codeLookup.config, rateLimit },
      handler: async (request) => {
        await checkReferralCode(deps, request.body.code);
        return { success: true as const };
      },
    });

    app.route({ ...routeOf(signupEndpoints.updateNewUser), handler: (request) => updateNewUser(deps, request.actor, request.body) });
  };
