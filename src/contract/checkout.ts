import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { fullOrderSchema } from './line-items.ts';
import { clientAddressInput, guid } from './shapes.ts';

const tags = ['checkout'];
const orderParams = z.object({ guid: guid('This order does not exist.') });

export const validDiscountCodeSchema = z.object({
  success: z.literal(true),
  discount_code: z.object({ code: z.string(), kind: z.enum(['percent', 'amount']), percent: z.number().optional(), amount: z.number().optional() }),
});

/** Checkout and payment (issue 12, docs/api.md §8); the order's choices are PATCH /lab_orders/{id}. */
export const checkoutEndpoints = {
  validateDiscountCode: endpoint({
    method: 'POST',
    path: '/validate_discount_code',
    tags,
    summary: 'Whether a discount code can be used now (exists, not paused, not expired, uses left), and what it is worth; 404 otherwise, saying so when the lab paused it or it expired',
    body: z.object({ code: z.string().max(100) }),
    answers: { ...errorAnswers(404), 200: validDiscountCodeSchema },
  }),
  setDropShip: endpoint({
    method: 'PUT',
    path: '/lab_orders/:guid/drop_ship',
    tags,
    summary:
      "Drop-ship: the open order ships straight to the photographer's client at this name and address (the owner's order, or any for an admin), instead of to the studio. The address is the order's own, never one of the photographer's saved addresses; the catalogue's drop_ship_fee joins the order's figures and local pickup goes off. Sent again, it replaces the client's address",
    params: orderParams,
    body: clientAddressInput,
    answers: { ...errorAnswers(403), 200: fullOrderSchema },
  }),
  removeDropShip: endpoint({
    method: 'DELETE',
    path: '/lab_orders/:guid/drop_ship',
    tags,
    summary: "The open order ships to the studio again: the client's address is forgotten and the drop-ship fee leaves the figures (nothing to remove is not an error)",
    params: orderParams,
    answers: { ...errorAnswers(403), 200: fullOrderSchema },
  }),
  checkout: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/checkout',
    tags,
    summary:
      "Pays the order (the owner's, or any for an admin): figures recomputed by the server, the selected card charged once, credit and discount use spent, the order marked paid and the receipt mailed. 402 CardError when the card is refused (the order stays open); 409 while another checkout of it is still in flight; 422 \"Add $4.20 to reach the lab's $18 minimum\" while its prints and finishing are below the catalogue's order_minimum (nothing is charged)",
    params: orderParams,
    body: z.object({ save_card: z.boolean().optional().describe('SAVE CARD FOR FUTURE USE: keep a card typed at checkout in the CREDIT CARDS list') }).optional(),
    answers: { ...errorAnswers(402), 200: fullOrderSchema },
  }),
};
