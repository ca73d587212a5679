import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { calculatorCatalogueSchema, catalogueEndpoints, finishingSchema, papersSchema, priceListSchema } from '../../src/contract/catalogue.ts';
import type { ServerDeps } from '../deps.ts';
import { sendCachedAnswer } from '../http/cached-answer.ts';
import { routeOf } from '../http/contract-route.ts';
import { createCatalogueCache } from '../services/catalogue-cache.ts';
import { calculatorCatalogue, finishingServicesFor, papersWithDetails, priceList, priceQuote } from '../services/catalogue-service.ts';

/**
 * The catalogue: public reads (the lab's price list), each computed once per catalogue version,
 * sent with a strong ETag and revalidated with a 304 (server/http/cached-answer.ts).
 */
export const catalogueRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const cache = createCatalogueCache(deps.db);

    app.route({
      ...routeOf(catalogueEndpoints.papersWithDetails),
      handler: async (request, reply) => sendCachedAnswer(request, reply, await cache.answer('papers', async () => papersSchema.parse({ data: await papersWithDetails(deps.db) }))),
    });

    app.route({
      ...routeOf(catalogueEndpoints.finishingServices),
      handler: async (request, reply) => {
        const printSize = request.params.print_size_guid;
        const answer = await cache.answer(`finishing:${printSize}`, async () => finishingSchema.parse({ data: await finishingServicesFor(deps.db, printSize) }));
        return sendCachedAnswer(request, reply, answer);
      },
    });

    app.route({
      ...routeOf(catalogueEndpoints.calculatorCatalogue),
      handler: async (request, reply) =>
        sendCachedAnswer(request, reply, await cache.answer('calculator', async () => calculatorCatalogueSchema.parse(await calculatorCatalogue(deps.db)))),
    });

    app.route({
      ...routeOf(catalogueEndpoints.priceLists),
      handler: async (request, reply) => sendCachedAnswer(request, reply, await cache.answer('price-lists', async () => priceListSchema.parse({ data: await priceList(deps.db) }))),
    });

    app.route({ ...routeOf(catalogueEndpoints.priceQuote), handler: (request) => priceQuote(deps.db, request.body) });
  };
