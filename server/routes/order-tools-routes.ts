import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { cancelOrder, refundOrder } from '../services/order-money.ts';
import { mergeOrders, reorder } from '../services/order-copies.ts';
import { requestZip } from '../services/order-zip.ts';
import { requestVendorSend } from '../services/vendor-send.ts';
import { addAlbum } from '../services/album-service.ts';
import { albumSchema } from './order-routes.ts';
import { successSchema } from '../../src/contract/shapes.ts';
import { fullOrderSchema } from './line-item-shapes.ts';
import { guid } from '../../src/contract/shapes.ts';
import { errorAnswers } from '../http/errors.ts';

const tags = ['lab orders'];
const orderParam = z.object({ guid: guid('This order does not exist.') });
// A refund reason is a sentence or two for the photographer's mail.
const REFUND_NOTE_MAX = 500;

// An album's words (fabric, font, stamping, cover text) are short labels.
const ALBUM_TEXT_MAX = 200;
// A lay-flat album has tens of spreads; a few hundred photos at most.
const ALBUM_SPREADS_MAX = 200;
const ALBUM_PHOTOS_MAX = 500;
// Cover text sizes in points.
const fontSize = z.number().int().min(4, 'A font size is 4 to 200 points.').max(200, 'A font size is 4 to 200 points.').optional();
const label = z.string().max(ALBUM_TEXT_MAX, `At most ${ALBUM_TEXT_MAX} characters.`).optional();

// As a new order's name (order-routes.ts).
const ORDER_NAME_MAX = 120;

/** The order tools of issue 13 beyond PATCH: refund, cancel, reorder, merge (docs/api.md §6). */
export const orderToolsRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      API.refundOrder,
      {
        schema: {
          tags,
          summary:
            "Admins: refunds part of the order's charge through the payment provider (never more than paid less earlier refunds), records it and mails the photographer; 502 when the provider refuses (nothing refunded)",
          params: orderParam,
          body: z.object({
            refund_amount: z.union([z.string().max(20), z.number().min(0).max(10_000_000)]).describe('Dollars, at most 2 decimals, more than 0.'),
            refund_note: z.string().max(REFUND_NOTE_MAX, `The refund reason can be at most ${REFUND_NOTE_MAX} characters.`).optional(),
          }),
          response: { ...errorAnswers(403, 502), 200: fullOrderSchema },
        },
      },
      (request) => refundOrder(deps, request.actor, request.params.guid, request.body, request.changeGuid('refund')),
    );

    app.post(
      API.cancelOrder,
      {
        schema: {
          tags,
          summary: "The photographer: cancels a paid order the lab has not started, within CANCEL_WINDOW_MINUTES of payment; the card is refunded, the credit returned, the photographer mailed",
          params: orderParam,
          response: { ...errorAnswers(502), 200: fullOrderSchema },
        },
      },
      (request) => cancelOrder(deps, request.actor, request.params.guid, request.changeGuid('refund')),
    );

    app.post(
      API.reorder,
      {
        schema: {
          tags,
          summary: "The photographer: a new open order with this order's photos (the stored originals shared, no upload) and line items at today's prices",
          params: orderParam,
          body: z.object({ order_name: z.string().trim().min(1, 'Enter an order name.').max(ORDER_NAME_MAX, `An order name can be at most ${ORDER_NAME_MAX} characters.`) }),
          response: { 201: fullOrderSchema },
        },
      },
      async (request, reply) => reply.code(201).send(await reorder(deps, request.actor, request.params.guid, request.body, request.changeGuid('order'))),
    );

    app.post(
      API.mergeOrders,
      {
        schema: {
          tags,
          summary: "Admins: moves the second order's line items and photos into the first (a photo in both kept once) and deletes the second, in one transaction; both open, one photographer",
          body: z.object({ orders: z.tuple([guid('This order does not exist.'), guid('This order does not exist.')]) }),
          response: { ...errorAnswers(403, 404), 200: fullOrderSchema },
        },
      },
      (request) => mergeOrders(deps, request.actor, request.body.orders),
    );

    app.post(
      API.createZipFile,
      {
        schema: {
          tags,
          summary: "Admins: (re)builds the zip of the order's originals in the background; download_all_link is null until it is ready",
          params: orderParam,
          response: { ...errorAnswers(403), 200: successSchema.extend({ zip_requested_at: z.string() }) },
        },
      },
      (request) => requestZip(deps, request.actor, request.params.guid),
    );

    app.post(
      API.albumLineItems,
      {
        schema: {
          tags,
          summary: "Admins: adds a custom album (docs/orders.md §3 Album) to an open order, from that order's photos; its price joins the order's figures; shown read-only on the order detail",
          params: orderParam,
          body: z.object({
            description: z.string().trim().min(1, 'Describe the album.').max(ALBUM_TEXT_MAX, `At most ${ALBUM_TEXT_MAX} characters.`),
            outer_fabric_name: label,
            inner_fabric_name: label,
            font: label,
            spread_quantity: z.number().int().min(1, 'An album has 1 to 200 spreads.').max(ALBUM_SPREADS_MAX, 'An album has 1 to 200 spreads.'),
            stamping: label,
            upper_text_value: label,
            upper_text_font_size: fontSize,
            lower_text_value: label,
            lower_text_font_size: fontSize,
            text_font: label,
            text_color: label,
            total_price: z
              .union([z.string().max(20), z.number().min(0).max(100_000)])
              .refine((v) => /^\d{1,6}(\.\d{1,2})?$/.test(String(v).trim()), 'Enter the album price in dollars with at most 2 decimals.')
              .describe('Dollars, at most 2 decimals.'),
            album_photos: z.array(guid('Every album photo must be a photo of this order.')).min(1, 'An album has at least one photo.').max(ALBUM_PHOTOS_MAX, `An album has at most ${ALBUM_PHOTOS_MAX} photos.`),
          }),
          response: { ...errorAnswers(403), 201: z.object({ data: albumSchema }) },
        },
      },
      async (request, reply) => reply.code(201).send(await addAlbum(deps, request.actor, request.params.guid, request.body)),
    );

    app.post(
      API.sendToApi,
      {
        schema: {
          tags,
          summary: "Admins: sends (again) the order's JSON to VENDOR_API_URL in the background, retried with backoff; 422 when no vendor is configured",
          params: orderParam,
          response: { ...errorAnswers(403), 200: successSchema },
        },
      },
      (request) => requestVendorSend(deps, request.actor, request.params.guid),
    );
  };
