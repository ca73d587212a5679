import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { cancelOrder, refundOrder } from '../services/order-money.ts';
import { fullOrderSchema } from './line-item-shapes.ts';
import { guid } from './shapes.ts';

const tags = ['lab orders'];
const orderParam = z.object({ guid: guid('This order does not exist.') });
// A refund reason is a sentence or two for the photographer's mail.
const REFUND_NOTE_MAX = 500;

/** The order tools of issue 13 beyond PATCH: refund, cancel (ADMIN-CONTRACT.md Wire). */
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
          response: { 200: fullOrderSchema },
        },
      },
      (request) => refundOrder(deps, request.actor, request.params.guid, request.body),
    );

    app.post(
      API.cancelOrder,
      {
        schema: {
          tags,
          summary: "The photographer: cancels a paid order the lab has not started, within CANCEL_WINDOW_MINUTES of payment; the card is refunded, the credit returned, the photographer mailed",
          params: orderParam,
          response: { 200: fullOrderSchema },
        },
      },
      (request) => cancelOrder(deps, request.actor, request.params.guid),
    );
  };
