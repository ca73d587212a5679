import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { fullOrderSchema } from './line-items.ts';
import { albumSchema, orderNameBody } from './orders.ts';
import { guid, successSchema } from './shapes.ts';

const tags = ['lab orders'];
const orderParam = z.object({ guid: guid('This order does not exist.') });
// A refund reason is a sentence or two for the photographer's mail.
const REFUND_NOTE_MAX = 500;
// A delay's reason is a sentence or two for the photographer's mail.
export const DELAY_REASON_MAX = 300;

// An album's words (fabric, font, stamping, cover text) are short labels.
const ALBUM_TEXT_MAX = 200;
// A lay-flat album has tens of spreads; a few hundred photos at most.
const ALBUM_SPREADS_MAX = 200;
const ALBUM_PHOTOS_MAX = 500;
// Cover text sizes in points.
const fontSize = z.number().int().min(4, 'A font size is 4 to 200 points.').max(200, 'A font size is 4 to 200 points.').optional();
const label = z.string().max(ALBUM_TEXT_MAX, `At most ${ALBUM_TEXT_MAX} characters.`).optional();

/** The order tools of issue 13 beyond PATCH: refund, cancel, reorder, merge (docs/api.md §6). */
export const orderToolsEndpoints = {
  refund: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/refund',
    tags,
    summary:
      "Admins: refunds part of the order's charge through the payment provider (never more than paid less earlier refunds), records it and mails the photographer; 502 when the provider refuses (nothing refunded)",
    params: orderParam,
    body: z.object({
      refund_amount: z.union([z.string().max(20), z.number().min(0).max(10_000_000)]).describe('Dollars, at most 2 decimals, more than 0.'),
      refund_note: z.string().max(REFUND_NOTE_MAX, `The refund reason can be at most ${REFUND_NOTE_MAX} characters.`).optional(),
    }),
    answers: { ...errorAnswers(403, 502), 200: fullOrderSchema },
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/cancel',
    tags,
    summary: "The photographer: cancels a paid order the lab has not started, within CANCEL_WINDOW_MINUTES of payment; the card is refunded, the credit returned, the photographer mailed",
    params: orderParam,
    answers: { ...errorAnswers(502), 200: fullOrderSchema },
  }),
  reorder: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/reorder',
    tags,
    summary: "The photographer: a new open order with this order's photos (the stored originals shared, no upload) and line items at today's prices",
    params: orderParam,
    body: orderNameBody,
    answers: { 201: fullOrderSchema },
  }),
  merge: endpoint({
    method: 'POST',
    path: '/lab-orders/merge',
    tags,
    summary: "Admins: moves the second order's line items and photos into the first (a photo in both kept once) and deletes the second, in one transaction; both open, one photographer",
    body: z.object({ orders: z.tuple([guid('This order does not exist.'), guid('This order does not exist.')]) }),
    answers: { ...errorAnswers(403, 404), 200: fullOrderSchema },
  }),
  createZipFile: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/create_zip_file',
    tags,
    summary: "Admins: (re)builds the zip of the order's originals in the background; download_all_link is null until it is ready",
    params: orderParam,
    answers: { ...errorAnswers(403), 200: successSchema.extend({ zip_requested_at: z.string() }) },
  }),
  addAlbum: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/album_line_items',
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
    answers: { ...errorAnswers(403), 201: z.object({ data: albumSchema }) },
  }),
  postDelay: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/delays',
    tags,
    summary:
      "Admins: moves a paid, unshipped order's promised ship date later, with the reason the photographer reads; the photographer is mailed (unless they turned delay mails off) and their webhooks told order.delayed",
    params: orderParam,
    body: z.object({
      ship_by: z.string().max(10, 'The new ship date is written YYYY-MM-DD.').describe('The new promised ship date, YYYY-MM-DD (UTC), a working day of the lab (no weekend or holiday) after today and after the current one.'),
      reason: z.string().max(DELAY_REASON_MAX, `A reason can be at most ${DELAY_REASON_MAX} characters.`),
    }),
    answers: { ...errorAnswers(403), 201: fullOrderSchema },
  }),
  sendToVendor: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/send_to_api',
    tags,
    summary: "Admins: sends (again) the order's JSON to VENDOR_API_URL in the background, retried with backoff; 422 when no vendor is configured",
    params: orderParam,
    answers: { ...errorAnswers(403), 200: successSchema },
  }),
};
