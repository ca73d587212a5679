import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { lineItemsEndpoints } from '../../src/contract/line-items.ts';
import { ordersEndpoints } from '../../src/contract/orders.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { validationError } from '../http/errors.ts';
import { changeOrder } from '../services/order-changes.ts';
import { addLineItems, deleteLineItem, retrieveFullOrder, updateLineItem, updateQuantity } from '../services/line-item-service.ts';

/** The cart of an order: the order builder, cart review and cart preview (docs/orders.md §7; docs/api.md §9. */
export const lineItemRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...routeOf(lineItemsEndpoints.retrieveFullOrder),
      handler: (request) => {
        const { line_items_per_page: perPage, line_items_cursor: cursor } = request.query;
        if (perPage === undefined && cursor !== undefined) throw validationError('line_items_cursor needs line_items_per_page.');
        return retrieveFullOrder(deps, request.actor, request.params.guid, perPage === undefined ? undefined : { perPage, cursor });
      },
    });

    app.route({
      ...routeOf(lineItemsEndpoints.addLineItems),
      handler: async (request, reply) => {
        // A line item sent without its guid gets one from the request's key, so the same request
        // run again (its answer lost in a crash) meets the line it made rather than adding another.
        const items = request.body.line_items.map((item, n) => ({ ...item, guid: item.guid ?? request.changeGuid(`line-item-${n}`) }));
        return reply.code(201).send(await addLineItems({ ...deps, log: request.log }, request.actor, request.params.guid, items));
      },
    });

    app.route({
      ...routeOf(lineItemsEndpoints.updateLineItem),
      // The schema asks for exactly one line item; the path names it.
      handler: (request) => updateLineItem({ ...deps, log: request.log }, request.actor, request.params.guid, request.params.lineItemGuid, request.body.line_items[0]),
    });

    app.route({
      ...routeOf(lineItemsEndpoints.updateQuantity),
      handler: (request) => updateQuantity(deps, request.actor, request.params.guid, request.body),
    });

    app.route({
      ...routeOf(lineItemsEndpoints.deleteLineItem),
      handler: (request) => deleteLineItem({ ...deps, log: request.log }, request.actor, request.params.guid),
    });

    app.route({
      ...routeOf(ordersEndpoints.change),
      handler: (request) => changeOrder(deps, request.actor, request.params.guid, request.body),
    });
  };
