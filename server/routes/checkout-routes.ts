import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { checkout } from '../services/checkout-service.ts';
import { validateDiscountCode } from '../services/discount-service.ts';
import { fullOrderSchema } from './line-item-shapes.ts';
import { guid } from '../../src/contract/shapes.ts';
import { errorAnswers } from '../http/errors.ts';

const tags = ['checkout'];

/** Checkout and payment (issue 12, docs/api.md §8); the order's choices are PATCH /lab_orders/{id}. */
export const checkoutRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      API.validateDiscountCode,
      {
        schema: {
          tags,
          summary: 'Whether a discount code can be used now (exists, not paused, not expired, uses left), and what it is worth; 404 otherwise, saying so when the lab paused it or it expired',
          body: z.object({ code: z.string().max(100) }),
          response: {
            ...errorAnswers(404),
            200: z.object({
              success: z.literal(true),
              discount_code: z.object({ code: z.string(), kind: z.enum(['percent', 'amount']), percent: z.number().optional(), amount: z.number().optional() }),
            }),
          },
        },
        // Guessing codes is a lookup like the others: LOOKUP_RATE_LIMIT a minute.
        config: { rateLimit: { max: deps.config.lookupRateLimit, timeWindow: 60_000 } },
      },
      (request) => validateDiscountCode(deps, request.actor, request.body.code),
    );

    app.post(
      API.checkout,
      {
        schema: {
          tags,
          summary:
            "Pays the order (the owner's, or any for an admin): figures recomputed by the server, the selected card charged once, credit and discount use spent, the order marked paid and the receipt mailed. 402 CardError when the card is refused (the order stays open); 409 while another checkout of it is still in flight; 422 \"Add $4.20 to reach the lab's $18 minimum\" while its prints and finishing are below the catalogue's order_minimum (nothing is charged)",
          params: z.object({ guid: guid('This order does not exist.') }),
          body: z.object({ save_card: z.boolean().optional().describe('SAVE CARD FOR FUTURE USE: keep a card typed at checkout in the CREDIT CARDS list') }).optional(),
          response: { ...errorAnswers(402), 200: fullOrderSchema },
        },
      },
      (request) => {
        const slot = request.idempotencySlot;
        return checkout({ ...deps, log: request.log }, request.actor, request.params.guid, request.body ?? {}, slot ? `${slot.scope}:${slot.key}` : null);
      },
    );
  };
