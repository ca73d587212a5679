import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import { CardError } from '../adapters/payments/payments.ts';
import type { SandboxPayments } from '../adapters/payments/sandbox-payments.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { createCard, removeCard, setDefaultCard } from '../services/card-service.ts';
import { guid, guidOrEmpty } from '../../src/contract/shapes.ts';
import { errorAnswers } from '../http/errors.ts';
import { profileShape } from './account-routes.ts';

const EXPIRY_MONTH = 'The expiry month is 1 to 12.';
const EXPIRY_YEAR = 'Enter the expiry year.';

/** CREDIT CARDS, and the sandbox provider's own tokenization when no Stripe keys are set. */
export const cardRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      API.paymentsConfig,
      {
        schema: {
          tags: ['cards'],
          summary: 'Which card field the app shows: the sandbox TEST MODE field, or Stripe with its publishable key',
          response: { 200: z.object({ provider: z.enum(['sandbox', 'stripe']), publishable_key: z.string().nullable() }) },
        },
        config: { public: true },
      },
      () => ({ provider: deps.payments.name, publishable_key: deps.payments.publishableKey }),
    );

    if (deps.payments.name === 'sandbox') {
      const sandbox = deps.payments as SandboxPayments;
      app.post(
        API.sandboxTokens,
        {
          schema: {
            tags: ['cards'],
            summary: "TEST MODE: turn one of Stripe's public test card numbers into a card token",
            body: z.object({
              number: z.string().max(30),
              exp_month: z.number().int().min(1, EXPIRY_MONTH).max(12, EXPIRY_MONTH),
              // Two digits (31) or four (2031), as card fields send them.
              exp_year: z.number().int().min(0, EXPIRY_YEAR).max(9999, EXPIRY_YEAR),
              cvc: z.string().max(4),
            }),
            response: { ...errorAnswers(402), 200: z.object({ id: z.string(), brand: z.string(), last4: z.string() }) },
          },
          config: { public: true, idempotency: false },
        },
        async (request) => {
          try {
            return await sandbox.mintToken(request.body);
          } catch (err) {
            if (err instanceof CardError) throw new HttpError(402, 'CardError', err.message);
            throw err;
          }
        },
      );
    }

    app.post(
      API.createCard,
      {
        schema: {
          response: { ...errorAnswers(402, 404), 200: profileShape },
          tags: ['cards'],
          summary: "Save a card from a card-field token; with lab_order_id (checkout), saved unkept and selected for that open order of the caller",
          body: z.object({ token_id: z.string().min(1).max(200), lab_order_id: guid('This order does not exist.').optional() }),
        },
      },
      (request) => createCard(deps, request.actor, request.body),
    );

    app.post(
      API.updateDefaultCard,
      { schema: { response: { ...errorAnswers(404), 200: profileShape }, tags: ['cards'], summary: 'Choose the primary card ("" clears it)', body: z.object({ make_primary: guidOrEmpty('This card does not exist.') }) } },
      (request) => setDefaultCard(deps, request.actor, request.body.make_primary),
    );

    app.post(
      API.removeCard,
      { schema: { response: { ...errorAnswers(404), 200: profileShape }, tags: ['cards'], summary: 'Remove a saved card', body: z.object({ selected_item: guid('This card does not exist.') }) } },
      (request) => removeCard(deps, request.actor, request.body.selected_item),
    );
  };
