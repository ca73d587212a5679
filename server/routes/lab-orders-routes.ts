import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, listLabOrders } from '../services/lab-orders-service.ts';
import { listMetaSchema, orderSummaryAttributes } from './shapes.ts';

const labOrderListItem = z.object({
  id: z.string(),
  type: z.literal('lab_order'),
  attributes: orderSummaryAttributes,
});

const PER_PAGE_MESSAGE = `per_page must be a whole number from 1 to ${MAX_PER_PAGE}.`;
// Longer search words than this are no order name or photographer anyone types.
const MAX_SEARCH_LENGTH = 100;

const listQuery = z.object({
  per_page: z.coerce
    .number({ error: PER_PAGE_MESSAGE })
    .int({ error: PER_PAGE_MESSAGE })
    .min(1, { error: PER_PAGE_MESSAGE })
    .max(MAX_PER_PAGE, { error: PER_PAGE_MESSAGE })
    .default(DEFAULT_PER_PAGE)
    .describe(`Orders per page (default ${DEFAULT_PER_PAGE}, at most ${MAX_PER_PAGE}).`),
  cursor: z.string().max(200).optional().describe("The previous page's meta.next_cursor: the page after it."),
  search: z
    .string()
    .max(MAX_SEARCH_LENGTH, { error: `Search for at most ${MAX_SEARCH_LENGTH} characters.` })
    .optional()
    .describe('Words to find (case-insensitive) in the order name, status, guid, photographer name or business.'),
});

const listMeta = listMetaSchema.extend({
  total: z.number().describe('How many orders match, on every page.'),
  per_page: z.number(),
  next_cursor: z.string().nullable().describe('Send as `cursor` for the next page; null on the last page.'),
});

export const labOrdersRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      API.labOrders,
      {
        schema: {
          tags: ['lab orders'],
          summary: 'Orders the caller may see, a page at a time, newest first (paid, else updated date): all for admins, their own for photographers',
          querystring: listQuery,
          response: { 200: z.object({ data: z.array(labOrderListItem), meta: listMeta }) },
        },
      },
      (request) => listLabOrders(deps.db, request.actor, { perPage: request.query.per_page, cursor: request.query.cursor, search: request.query.search }),
    );
  };
