import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CALCULATOR_GROUPS, DETAIL_KINDS, FINISHING_CATEGORIES, type CalculatorGroup } from '../../src/domain/catalogue.ts';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { sendCachedAnswer } from '../http/cached-answer.ts';
import { createCatalogueCache } from '../services/catalogue-cache.ts';
import { calculatorCatalogue, finishingServicesFor, papersWithDetails, priceList, priceQuote } from '../services/catalogue-service.ts';
import { guid } from '../../src/contract/shapes.ts';
import { errorAnswers } from '../http/errors.ts';

const money = z.number();
const printSizePricing = z.object({ guid: z.string(), name: z.string(), price: money, x_aspect: z.number(), y_aspect: z.number() });
const paper = z.object({ guid: z.string(), name: z.string(), allows_border: z.boolean(), print_size_pricings: z.array(printSizePricing) });
const detail = z.object({ guid: z.string(), name: z.string(), price: money, is_default: z.boolean() });
const service = z.object({
  guid: z.string(),
  name: z.string(),
  price: money,
  finishing_category: z.enum(FINISHING_CATEGORIES),
  frame_profile: z.string().nullable(),
  formatted_frame_profile: z.string().nullable(),
  detail_pricings: z.partialRecord(z.enum(DETAIL_KINDS), z.array(detail)),
});
const group = z.object({ finishing_category: z.enum(FINISHING_CATEGORIES), services: z.array(service) });
// The calculator's compact shape (src/domain/calculator-catalogue.ts): print sizes refer to each
// distinct finishing and detail choice by key.
const calculatorGroups = z.partialRecord(
  z.enum(Object.keys(CALCULATOR_GROUPS) as [CalculatorGroup, ...CalculatorGroup[]]),
  z.array(z.object({ guid: z.string(), finishing: z.string().describe('a key of `finishing`') })),
);
const calculatorCatalogueSchema = z.object({
  data: z.array(paper.extend({ print_size_pricings: z.array(printSizePricing.extend({ calculator_groups: calculatorGroups })) })),
  finishing: z.record(
    z.string(),
    service.omit({ guid: true, detail_pricings: true }).extend({
      detail_options: z.partialRecord(z.enum(DETAIL_KINDS), z.array(z.string().describe('a key of `options`'))),
    }),
  ),
  options: z.record(z.string(), detail.omit({ guid: true })),
  settings: z.object({ order_minimum: money.describe("the lab's order minimum in dollars: an order's prints and finishing must reach it to be checked out; 0 = none") }),
});
const priceListSchema = z.object({
  data: z.array(
    z.object({
      guid: z.string(),
      name: z.string(),
      print_sizes: z.array(z.object({ guid: z.string(), name: z.string(), price: money, finishing_from: z.partialRecord(z.enum(FINISHING_CATEGORIES), money) })),
    }),
  ),
});
const papersSchema = z.object({ data: z.array(paper) });
const finishingSchema = z.object({ data: z.array(group) });

const quoteBody = z.object({
  print_size: guid('Choose a print size.'),
  finishing_service: guid('Choose a finishing service.').nullish(),
  finishing_service_details: z.array(guid('Choose a finishing detail.')).max(DETAIL_KINDS.length).optional(),
  finishing_options: z.array(z.string().max(32)).max(DETAIL_KINDS.length).optional(),
  quantity: z.number().int({ error: 'Quantity must be a whole number.' }).min(1, { error: 'Quantity must be at least 1.' }).max(10_000),
});

const cached = z.null().describe('Unchanged since the ETag sent in If-None-Match: no body.');

/**
 * The catalogue: public reads (the lab's price list), each computed once per catalogue version,
 * sent with a strong ETag and revalidated with a 304 (server/http/cached-answer.ts).
 */
export const catalogueRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const cache = createCatalogueCache(deps.db);

    app.get(
      API.papersWithDetails,
      { schema: { tags: ['catalogue'], summary: 'Papers with their print sizes and prices', response: { 200: papersSchema, 304: cached } }, config: { public: true } },
      async (request, reply) => sendCachedAnswer(request, reply, await cache.answer('papers', async () => papersSchema.parse({ data: await papersWithDetails(deps.db) }))),
    );

    app.get(
      API.finishingServices,
      {
        schema: {
          tags: ['catalogue'],
          summary: 'The finishing offered for one print size, grouped by category, with detail choices and prices',
          params: z.object({ print_size_guid: guid('This print size is not offered.') }),
          response: { 200: finishingSchema, 304: cached },
        },
        config: { public: true },
      },
      async (request, reply) => {
        const printSize = request.params.print_size_guid;
        const answer = await cache.answer(`finishing:${printSize}`, async () => finishingSchema.parse({ data: await finishingServicesFor(deps.db, printSize) }));
        return sendCachedAnswer(request, reply, answer);
      },
    );

    app.get(
      API.calculatorCatalogue,
      {
        schema: {
          tags: ['catalogue'],
          summary: "The calculator's catalogue: every print size with its finishing in the calculator's groups, each distinct finishing and detail choice once",
          response: { 200: calculatorCatalogueSchema, 304: cached },
        },
        config: { public: true },
      },
      async (request, reply) =>
        sendCachedAnswer(request, reply, await cache.answer('calculator', async () => calculatorCatalogueSchema.parse(await calculatorCatalogue(deps.db)))),
    );

    app.get(
      API.priceLists,
      { schema: { tags: ['catalogue'], summary: "The lab's price list by paper", response: { 200: priceListSchema, 304: cached } }, config: { public: true } },
      async (request, reply) => sendCachedAnswer(request, reply, await cache.answer('price-lists', async () => priceListSchema.parse({ data: await priceList(deps.db) }))),
    );

    app.post(
      API.priceQuote,
      {
        schema: {
          tags: ['catalogue'],
          summary: 'The price of a print with its finishing, as the server computes it',
          body: quoteBody,
          response: {
            ...errorAnswers(404),
            200: z.object({
              paper: z.string(),
              print_size: z.string(),
              finishing: z.string().nullable(),
              print_price: money,
              finishing_price: money,
              quantity: z.number(),
              subtotal: money,
            }),
          },
        },
        config: { public: true },
      },
      (request) => priceQuote(deps.db, request.body),
    );
  };
