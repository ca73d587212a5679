import { z } from 'zod';
import { profileSchema } from './account.ts';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { guid, guidOrEmpty } from './shapes.ts';

const tags = ['cards'];
const EXPIRY_MONTH = 'The expiry month is 1 to 12.';
const EXPIRY_YEAR = 'Enter the expiry year.';

/** CREDIT CARDS, and the sandbox provider's own tokenization when no Stripe keys are set. */
export const cardEndpoints = {
  paymentsConfig: endpoint({
    method: 'GET',
    path: '/payments/config',
    tags,
    summary: 'Which card field the app shows: the sandbox TEST MODE field, or Stripe with its publishable key',
    public: true,
    answers: { 200: z.object({ provider: z.enum(['sandbox', 'stripe']), publishable_key: z.string().nullable() }) },
  }),
  /** Served only by a lab whose payments are the sandbox provider. */
  sandboxToken: endpoint({
    method: 'POST',
    path: '/sandbox/tokens',
    tags,
    summary: "TEST MODE: turn one of Stripe's public test card numbers into a card token",
    public: true,
    body: z.object({
      number: z.string().max(30),
      exp_month: z.number().int().min(1, EXPIRY_MONTH).max(12, EXPIRY_MONTH),
      // Two digits (31) or four (2031), as card fields send them.
      exp_year: z.number().int().min(0, EXPIRY_YEAR).max(9999, EXPIRY_YEAR),
      cvc: z.string().max(4),
    }),
    answers: { ...errorAnswers(402), 200: z.object({ id: z.string(), brand: z.string(), last4: z.string() }) },
  }),
  createCard: endpoint({
    method: 'POST',
    path: '/accounts/create_card',
    tags,
    summary: 'Save a card from a card-field token; with lab_order_id (checkout), saved unkept and selected for that open order of the caller',
    body: z.object({ token_id: z.string().min(1).max(200), lab_order_id: guid('This order does not exist.').optional() }),
    answers: { ...errorAnswers(402, 404), 200: profileSchema },
  }),
  setDefaultCard: endpoint({
    method: 'POST',
    path: '/accounts/update_default_card',
    tags,
    summary: 'Choose the primary card ("" clears it)',
    body: z.object({ make_primary: guidOrEmpty('This card does not exist.') }),
    answers: { ...errorAnswers(404), 200: profileSchema },
  }),
  removeCard: endpoint({
    method: 'POST',
    path: '/accounts/remove_card',
    tags,
    summary: 'Remove a saved card',
    body: z.object({ selected_item: guid('This card does not exist.') }),
    answers: { ...errorAnswers(404), 200: profileSchema },
  }),
};
