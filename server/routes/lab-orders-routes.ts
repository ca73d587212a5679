import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { labOrdersEndpoints, type labOrdersAnswer } from '../../src/contract/lab-orders.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { listLabOrdersJson } from '../services/lab-orders-service.ts';

export const labOrdersRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...routeOf(labOrdersEndpoints.list),
      handler: async (request, reply) => {
        const q = request.query;
        const json = await listLabOrdersJson(deps, request.actor, { perPage: q.per_page, cursor: q.cursor, search: q.search, filters: q.filters, photographerId: q.photographer_id, urgent: q.urgent === 'true' });
        // Sent as the JSON the service wrote (a photographer's pages are kept as text): a JSON
        // string is not serialized again, so the schema documents the answer and the API tests
        // parse every answer with it (labOrdersAnswer) instead of the route checking it.
        return reply.type('application/json; charset=utf-8').send(json as unknown as z.infer<typeof labOrdersAnswer>);
      },
    });
  };
