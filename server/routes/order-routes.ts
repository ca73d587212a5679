import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ordersEndpoints } from '../../src/contract/orders.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { deleteLabOrder } from '../services/order-delete.ts';
import { assertOrderNameTaken, createLabOrder, getLabOrder } from '../services/order-service.ts';

/** New orders and one order with its photos (docs/orders.md §2 New order, §7); its changes are in line-item-routes.ts. */
export const orderRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...routeOf(ordersEndpoints.checkUniqueOrderName),
      handler: async (request) => {
        await assertOrderNameTaken(deps, request.actor, request.body.order_name);
        return { success: true as const };
      },
    });

    app.route({
      ...routeOf(ordersEndpoints.create),
      handler: async (request, reply) => reply.code(201).send(await createLabOrder(deps, request.actor, request.body, request.changeGuid('order'))),
    });

    app.route({ ...routeOf(ordersEndpoints.get), handler: (request) => getLabOrder(deps, request.actor, request.params.guid) });

    app.route({ ...routeOf(ordersEndpoints.delete), handler: (request) => deleteLabOrder(deps, request.actor, request.params.guid) });
  };
