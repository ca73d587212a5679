import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  calculatorCatalogueSchema,
  catalogueEndpoints,
  finishingSchema,
  papersSchema,
  PAPER_PROFILE_MAX_BASE64,
  priceListSchema,
} from '../../src/contract/catalogue.ts';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { sendCachedAnswer } from '../http/cached-answer.ts';
import { routeOf } from '../http/contract-route.ts';
import { createCatalogueCache } from '../services/catalogue-cache.ts';
import { calculatorCatalogue, finishingServicesFor, papersWithDetails, priceList, priceQuote } from '../services/catalogue-service.ts';
import { attachPaperProfile, paperProfileByFile, PAPER_PROFILE_CONTENT_TYPE, removePaperProfile } from '../services/paper-profile-service.ts';

// Room for the largest profile in base64 and the JSON around it (the file name, the keys).
const PROFILE_BODY_LIMIT = PAPER_PROFILE_MAX_BASE64 + 4096;
// A profile's URL names its content: the file at it never changes.
const IMMUTABLE = 'public, max-age=31536000, immutable';

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

    app.route({
      ...routeOf(catalogueEndpoints.attachPaperProfile),
      bodyLimit: PROFILE_BODY_LIMIT,
      handler: (request) => attachPaperProfile(deps, request.actor, request.params.paper_guid, request.body),
    });

    app.route({
      ...routeOf(catalogueEndpoints.removePaperProfile),
      handler: (request) => removePaperProfile(deps, request.actor, request.params.paper_guid),
    });

    // The profile file itself: bytes, not JSON, so outside the API document (the catalogue's
    // icc_profile.url names it). Public like the catalogue that links it.
    app.get(
      API.paperProfileFile,
      { schema: { hide: true, params: z.object({ file: z.string().max(80) }) }, config: { public: true } },
      async (request, reply) => {
        const row = await paperProfileByFile(deps.db, request.params.file);
        return reply
          .type(PAPER_PROFILE_CONTENT_TYPE)
          .header('cache-control', IMMUTABLE)
          .header('etag', `"${row.key.slice(row.key.lastIndexOf('/') + 1, -'.icc'.length)}"`)
          .send(await deps.storage.stream(row.key));
      },
    );
  };
