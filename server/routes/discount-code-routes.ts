import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { discountCodeEndpoints } from '../../src/contract/discount-codes.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { changeCode, createCodeAsAdmin, listCodesWithUses } from '../services/discount-admin.ts';

/** Discount codes for lab admins (issue 34): the admin screen's calls; npm run discount:create stays. */
export const discountCodeRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({ ...routeOf(discountCodeEndpoints.list), handler: (request) => listCodesWithUses(deps, request.actor) });

    app.route({
      ...routeOf(discountCodeEndpoints.create),
      handler: async (request, reply) => reply.code(201).send(await createCodeAsAdmin(deps, request.actor, request.body)),
    });

    app.route({ ...routeOf(discountCodeEndpoints.change), handler: (request) => changeCode(deps, request.actor, request.params.code, request.body) });
  };
