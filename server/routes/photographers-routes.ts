import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { photographersEndpoints } from '../../src/contract/photographers.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { apiInvoices, findPhotographer, listPhotographers, loginAsUser } from '../services/photographers-service.ts';

/** The photographers list, log in as, and API invoices (docs/api.md §6). */
export const photographersRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...routeOf(photographersEndpoints.photographers),
      handler: (request) => listPhotographers(deps, request.actor, { search: request.query.search, perPage: request.query.per_page, cursor: request.query.cursor }),
    });

    app.route({ ...routeOf(photographersEndpoints.findPhotographer), handler: (request) => findPhotographer(deps, request.actor, request.query.query) });

    app.route({
      ...routeOf(photographersEndpoints.loginAsUser),
      // The answer holds a session token: never stored for a replay.
      config: { idempotency: false },
      handler: (request) => loginAsUser(deps, request.actor, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }),
    });

    app.route({ ...routeOf(photographersEndpoints.apiInvoices), handler: (request) => apiInvoices(deps, request.actor) });
  };
