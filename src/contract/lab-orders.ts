import { z } from 'zod';
import { ORDER_FILTERS, type OrderFilter } from '../domain/order-filters.ts';
import { endpoint } from './endpoint.ts';
import { guid, listMetaSchema, orderSummaryAttributes, shippingMethodSchema } from './shapes.ts';

/** The orders list, a page at a time (docs/orders.md §2 Lab orders; docs/api.md §6). */

// Orders per page when the caller does not say: a screenful and more on a large monitor, small
// enough that a page costs a few milliseconds however large the lab grows.
export const DEFAULT_PER_PAGE = 50;
// The most a caller may ask for in one page: keeps the heaviest list read in the same league as
// any other read (the embedded database runs on the server's own thread).
export const MAX_PER_PAGE = 200;

/** What a card of the orders list shows beyond the summary (docs/api.md §6). */
export const orderListFields = z.object({
  urgent: z.boolean(),
  has_notes: z.boolean(),
  has_admin_notes: z.boolean().describe('Admins only; false for photographers.'),
  has_frame: z.boolean(),
  has_mount: z.boolean(),
  has_mat: z.boolean(),
  has_canvas: z.boolean(),
  api_order: z.boolean(),
  test_print: z.boolean(),
  boutique_shipping: z.boolean(),
  local_pickup: z.boolean(),
  shipping_method: shippingMethodSchema,
  tracking_url: z.string().nullable(),
  total: z.number(),
  cover_photo_url: z.string().nullable().describe("The first photo's thumbnail (signed), or null without photos."),
  download_all_link: z.string().nullable().describe('Admins only: the signed zip of the originals once built.'),
  color_correction: z.enum(['lab', 'as_is']),
  line_item_count: z.number(),
});

const labOrderListItem = z.object({
  id: z.string(),
  type: z.literal('lab_order'),
  attributes: orderSummaryAttributes.extend(orderListFields.shape),
});

const FILTERS_MESSAGE = `filters is a comma list of: ${ORDER_FILTERS.join(', ')}.`;
// A comma list of filter names, blanks around them and empty places allowed ('mat, ,frame'), as
// a pattern: the API document shows the very rule (which names, how they are separated).
const FILTER_NAME = `\\s*(?:(?:${ORDER_FILTERS.join('|')})\\s*)?`;
const FILTERS_PATTERN = new RegExp(`^${FILTER_NAME}(?:,${FILTER_NAME})*$`);
const filtersParam = z
  .string()
  .max(200, { error: FILTERS_MESSAGE })
  .regex(FILTERS_PATTERN, { error: FILTERS_MESSAGE })
  .transform((text) => [...new Set(text.split(',').map((n) => n.trim()).filter(Boolean))] as OrderFilter[]);

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
  filters: filtersParam.optional().describe(`Admins only (ignored for photographers), AND-combined: ${ORDER_FILTERS.join(', ')}.`),
  photographer_id: guid('photographer_id is a photographer guid.').optional().describe("Admins only: that photographer's orders (the merge selection)."),
  urgent: z.enum(['true', 'false'], { error: 'urgent is true or false.' }).optional().describe("Admins only: true lists the urgent orders (the 'Urgent Orders:' section)."),
});

const listMeta = listMetaSchema.extend({
  total: z.number().describe('How many orders match, on every page.'),
  per_page: z.number(),
  next_cursor: z.string().nullable().describe('Send as `cursor` for the next page; null on the last page.'),
  urgent_count: z.number().describe('How many urgent orders the caller may see.'),
});

/** The list's answer: the API tests parse every answer with it (the route sends the service's JSON text). */
export const labOrdersAnswer = z.object({ data: z.array(labOrderListItem), meta: listMeta });

export const labOrdersEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/lab_orders',
    tags: ['lab orders'],
    summary: 'Orders the caller may see, a page at a time, newest first (paid, else updated date): all for admins, their own for photographers',
    query: listQuery,
    answers: { 200: labOrdersAnswer },
  }),
};
