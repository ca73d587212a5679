import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderToolsEndpoints } from '../../src/contract/order-tools.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { addAlbum } from '../services/album-service.ts';
import { postDelay } from '../services/delay-notices.ts';
import { mergeOrders, reorder } from '../services/order-copies.ts';
import { cancelOrder, refundOrder } from '../services/order-money.ts';
import { requestZip } from '../services/order-zip.ts';
import { requestVendorSend } from '../services/vendor-send.ts';

/** The order tools of issue 13 beyond PATCH: refund, cancel, reorder, merge (docs/api.md §6). */
export const orderToolsRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...routeOf(orderToolsEndpoints.refund),
      handler: (request) => refundOrder(deps, request.actor, request.params.guid, request.body, request.changeGuid('refund')),
    });

    app.route({
      ...routeOf(orderToolsEndpoints.cancel),
      handler: (request) => cancelOrder(deps, request.actor, request.params.guid, request.changeGuid('refund')),
    });

    app.route({
      ...routeOf(orderToolsEndpoints.reorder),
      handler: async (request, reply) => reply.code(201).send(await reorder(deps, request.actor, request.params.guid, request.body, request.changeGuid('order'))),
    });

    app.route({ ...routeOf(orderToolsEndpoints.merge), handler: (request) => mergeOrders(deps, request.actor, request.body.orders) });

    app.route({ ...routeOf(orderToolsEndpoints.createZipFile), handler: (request) => requestZip(deps, request.actor, request.params.guid) });

    app.route({
      ...routeOf(orderToolsEndpoints.addAlbum),
      handler: async (request, reply) => reply.code(201).send(await addAlbum(deps, request.actor, request.params.guid, request.body)),
    });

    app.route({
      ...routeOf(orderToolsEndpoints.postDelay),
      handler: async (request, reply) => reply.code(201).send(await postDelay(deps, request.actor, request.params.guid, request.body)),
    });

    app.route({ ...routeOf(orderToolsEndpoints.sendToVendor), handler: (request) => requestVendorSend(deps, request.actor, request.params.guid) });
  };
