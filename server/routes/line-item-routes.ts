import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { changeOrder, ORDER_CHANGE_TYPES } from '../services/order-changes.ts';
import { addLineItems, deleteLineItem, retrieveFullOrder, updateLineItem, updateQuantity } from '../services/line-item-service.ts';
import { addLineItemsBody, cartMeta, changeOrderBody, fullOrderSchema, serverLineItemSchema, updateLineItemBody, updateQuantityBody } from './line-item-shapes.ts';
import { guid } from '../../src/contract/shapes.ts';
import { validationError } from '../http/errors.ts';
import { errorAnswers } from '../http/errors.ts';

const orderGuid = guid('This order does not exist.');
const lineItemGuid = guid('This line item does not exist.');
const tags = ['line items'];
// The most line items one answer of retrieve_full_order carries when paged (the device reads a
// 1,000-photo order in pages of LINE_ITEM_READ_PAGE, src/offline/order-read.ts).
const MAX_LINE_ITEMS_PER_PAGE = 500;
const PER_PAGE_MESSAGE = `line_items_per_page must be a whole number from 1 to ${MAX_LINE_ITEMS_PER_PAGE}.`;
const fullOrderQuery = z.object({
  line_items_per_page: z.coerce
    .number({ error: PER_PAGE_MESSAGE })
    .int({ error: PER_PAGE_MESSAGE })
    .min(1, { error: PER_PAGE_MESSAGE })
    .max(MAX_LINE_ITEMS_PER_PAGE, { error: PER_PAGE_MESSAGE })
    .optional()
    .describe('Page the line items: at most this many, in the order they were added. Without it, every line item.'),
  line_items_cursor: z.string().max(100).optional().describe('meta.line_items_next_cursor of the page before (with line_items_per_page).'),
});

/** The cart of an order: the order builder, cart review and cart preview (docs/orders.md §7; docs/api.md §9. */
export const lineItemRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      API.retrieveFullOrder,
      {
        schema: {
          tags,
          summary: "The order with its figures and every line item (or a page of them), for the builder and the review: the owner's, or any for an admin",
          params: z.object({ guid: orderGuid }),
          querystring: fullOrderQuery,
          response: { 200: fullOrderSchema },
        },
      },
      (request) => {
        const { line_items_per_page: perPage, line_items_cursor: cursor } = request.query;
        if (perPage === undefined && cursor !== undefined) throw validationError('line_items_cursor needs line_items_per_page.');
        return retrieveFullOrder(deps, request.actor, request.params.guid, perPage === undefined ? undefined : { perPage, cursor });
      },
    );

    app.post(
      API.orderLineItems,
      {
        schema: {
          tags,
          summary: 'Adds 1 to 30 line items, each with a client-made guid (or one the lab makes); a guid already in the order is a replay; the same product of a photo raises its line by 1. Priced by the server.',
          params: z.object({ guid: orderGuid }),
          body: addLineItemsBody,
          response: { 201: z.object({ data: z.array(serverLineItemSchema), meta: cartMeta }) },
        },
      },
      async (request, reply) => {
        // A line item sent without its guid gets one from the request's key, so the same request
        // run again (its answer lost in a crash) meets the line it made rather than adding another.
        const items = request.body.line_items.map((item, n) => ({ ...item, guid: item.guid ?? request.changeGuid(`line-item-${n}`) }));
        return reply.code(201).send(await addLineItems({ ...deps, log: request.log }, request.actor, request.params.guid, items));
      },
    );

    app.patch(
      API.orderLineItem,
      {
        schema: {
          tags,
          summary: 'Changes a line item: product, crop, notes and quantity, priced again',
          params: z.object({ guid: orderGuid, lineItemGuid }),
          body: updateLineItemBody,
          response: { 200: z.object({ data: serverLineItemSchema, meta: cartMeta }) },
        },
      },
      // The schema asks for exactly one line item; the path names it.
      (request) => updateLineItem({ ...deps, log: request.log }, request.actor, request.params.guid, request.params.lineItemGuid, request.body.line_items[0]),
    );

    app.patch(
      API.updateQuantity,
      {
        schema: {
          tags,
          summary: 'Sets the quantity of a line item ({line_items:[{quantity}]} or {qty}); answers the whole order',
          params: z.object({ guid: lineItemGuid }),
          body: updateQuantityBody,
          response: { 200: fullOrderSchema },
        },
      },
      (request) => updateQuantity(deps, request.actor, request.params.guid, request.body),
    );

    app.delete(
      API.lineItem,
      {
        schema: { tags, summary: 'Removes a line item (404 when already gone); answers the whole order', params: z.object({ guid: lineItemGuid }), response: { 200: fullOrderSchema } },
      },
      (request) => deleteLineItem({ ...deps, log: request.log }, request.actor, request.params.guid),
    );

    app.patch(
      API.labOrder,
      {
        schema: {
          tags,
          summary: `Changes an order by {type, value} (types: ${ORDER_CHANGE_TYPES.join(', ')}; boutique_shipping also takes boutique_shipping_note): the owner or an admin, while open (updated_at 'now' on any order); answers the checkout order`,
          params: z.object({ guid: orderGuid }),
          body: changeOrderBody,
          response: { ...errorAnswers(403), 200: fullOrderSchema },
        },
      },
      (request) => changeOrder(deps, request.actor, request.params.guid, request.body),
    );
  };
