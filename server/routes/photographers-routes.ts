import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { apiInvoices, findPhotographer, listPhotographers, loginAsUser } from '../services/photographers-service.ts';
import { listMetaSchema, sessionAnswerSchema } from '../../src/contract/shapes.ts';
import { errorAnswers } from '../http/errors.ts';

const tags = ['photographers'];
// A page of photographers: the whole list of a small lab, a screenful of a large one.
const DEFAULT_PER_PAGE = 100;
const MAX_PER_PAGE = 500;
const PER_PAGE_MESSAGE = `per_page must be a whole number from 1 to ${MAX_PER_PAGE}.`;
// No name, business or email anyone types is longer.
const SEARCH_MAX = 100;

export const photographerSchema = z.object({
  id: z.string(),
  type: z.literal('photographer'),
  attributes: z.object({
    guid: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    business_name: z.string(),
    user_approved: z.boolean(),
    credit_available: z.number(),
    created_at: z.string(),
    order_count: z.number(),
  }),
});
const search = z.string().max(SEARCH_MAX, { error: `Search for at most ${SEARCH_MAX} characters.` });

/** The photographers list, log in as, and API invoices (docs/api.md §6). */
export const photographersRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      API.photographers,
      {
        schema: {
          tags,
          summary: 'Admins: the photographers, by email, a page at a time; search (from 3 characters) over name, business and email',
          querystring: z.object({
            search: search.optional(),
            per_page: z.coerce.number({ error: PER_PAGE_MESSAGE }).int({ error: PER_PAGE_MESSAGE }).min(1, { error: PER_PAGE_MESSAGE }).max(MAX_PER_PAGE, { error: PER_PAGE_MESSAGE }).default(DEFAULT_PER_PAGE),
            cursor: z.string().max(500).optional(),
          }),
          response: { ...errorAnswers(403), 200: z.object({ data: z.array(photographerSchema), meta: listMetaSchema.extend({ total: z.number(), per_page: z.number(), next_cursor: z.string().nullable() }) }) },
        },
      },
      (request) => listPhotographers(deps, request.actor, { search: request.query.search, perPage: request.query.per_page, cursor: request.query.cursor }),
    );

    app.get(
      API.findPhotographer,
      {
        schema: {
          tags,
          summary: 'Admins: the first 20 photographers matching the query (from 3 characters)',
          querystring: z.object({ query: search }),
          response: { ...errorAnswers(403, 404), 200: z.object({ data: z.array(photographerSchema) }) },
        },
      },
      (request) => findPhotographer(deps, request.actor, request.query.query),
    );

    app.post(
      API.loginAsUser,
      {
        schema: {
          tags,
          summary: "Admins: a session of the photographer that records the admin; DELETE /logout with it ends only it (the admin's own session stays)",
          body: z.object({ email: z.string().max(320) }),
          response: { ...errorAnswers(403, 404), 200: sessionAnswerSchema },
        },
        // The answer holds a session token: never stored for a replay.
        config: { idempotency: false },
      },
      (request) => loginAsUser(deps, request.actor, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }),
    );

    app.get(
      API.apiInvoices,
      {
        schema: {
          tags,
          summary: "Admins and API vendors: paid API orders by month with totals (net of refunds); a vendor's own only",
          response: { ...errorAnswers(403), 200: z.object({ data: z.array(z.object({ month: z.string(), orders: z.number(), total: z.number() })) }) },
        },
      },
      (request) => apiInvoices(deps, request.actor),
    );
  };
