import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { listMetaSchema, sessionAnswerSchema } from './shapes.ts';

const tags = ['photographers'];
// A page of photographers: the whole list of a small lab, a screenful of a large one.
const DEFAULT_PER_PAGE = 100;
const MAX_PER_PAGE = 500;
const PER_PAGE_MESSAGE = `per_page must be a whole number from 1 to ${MAX_PER_PAGE}.`;
// No name, business or email anyone types is longer.
const SEARCH_MAX = 100;
const search = z.string().max(SEARCH_MAX, { error: `Search for at most ${SEARCH_MAX} characters.` });

/** A photographer as the admin's list and edits show them. */
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

/** The photographers list, log in as, and API invoices (docs/api.md §6). */
export const photographersEndpoints = {
  photographers: endpoint({
    method: 'GET',
    path: '/photographers',
    tags,
    summary: 'Admins: the photographers, by email, a page at a time; search (from 3 characters) over name, business and email',
    query: z.object({
      search: search.optional(),
      per_page: z.coerce
        .number({ error: PER_PAGE_MESSAGE })
        .int({ error: PER_PAGE_MESSAGE })
        .min(1, { error: PER_PAGE_MESSAGE })
        .max(MAX_PER_PAGE, { error: PER_PAGE_MESSAGE })
        .default(DEFAULT_PER_PAGE),
      cursor: z.string().max(500).optional(),
    }),
    answers: {
      ...errorAnswers(403),
      200: z.object({ data: z.array(photographerSchema), meta: listMetaSchema.extend({ total: z.number(), per_page: z.number(), next_cursor: z.string().nullable() }) }),
    },
  }),
  findPhotographer: endpoint({
    method: 'GET',
    path: '/find_photographer',
    tags,
    summary: 'Admins: the first 20 photographers matching the query (from 3 characters)',
    query: z.object({ query: search }),
    answers: { ...errorAnswers(403, 404), 200: z.object({ data: z.array(photographerSchema) }) },
  }),
  loginAsUser: endpoint({
    method: 'POST',
    path: '/login_as_user',
    tags,
    summary: "Admins: a session of the photographer that records the admin; DELETE /logout with it ends only it (the admin's own session stays)",
    body: z.object({ email: z.string().max(320) }),
    answers: { ...errorAnswers(403, 404), 200: sessionAnswerSchema },
  }),
  apiInvoices: endpoint({
    method: 'GET',
    path: '/api_invoices',
    tags,
    summary: "Admins and API vendors: paid API orders by month with totals (net of refunds); a vendor's own only",
    answers: { ...errorAnswers(403), 200: z.object({ data: z.array(z.object({ month: z.string(), orders: z.number(), total: z.number() })) }) },
  }),
};
