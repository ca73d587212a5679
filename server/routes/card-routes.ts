import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cardEndpoints } from '../../src/contract/cards.ts';
import { CardError } from '../adapters/payments/payments.ts';
import type { SandboxPayments } from '../adapters/payments/sandbox-payments.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { HttpError } from '../http/errors.ts';
import { createCard, removeCard, setDefaultCard } from '../services/card-service.ts';

/** CREDIT CARDS, and the sandbox provider's own tokenization when no Stripe keys are set. */
export const cardRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({ ...routeOf(cardEndpoints.paymentsConfig), handler: () => ({ provider: deps.payments.name, publishable_key: deps.payments.publishableKey }) });

    if (deps.payments.name === 'sandbox') {
      const sandbox = deps.payments as SandboxPayments;
      const mint = routeOf(cardEndpoints.sandboxToken);
      app.route({
        ...mint,
        config: { ...mint.config, idempotency: false },
        handler: async (request) => {
          try {
            return await sandbox.mintToken(request.body);
          } catch (err) {
            if (err instanceof CardError) throw new HttpError(402, 'CardError', err.message);
            throw err;
          }
        },
      });
    }

    app.route({ ...routeOf(cardEndpoints.createCard), handler: (request) => createCard(deps, request.actor, request.body) });
    app.route({ ...routeOf(cardEndpoints.setDefaultCard), handler: (request) => setDefaultCard(deps, request.actor, request.body.make_primary) });
    app.route({ ...routeOf(cardEndpoints.removeCard), handler: (request) => removeCard(deps, request.actor, request.body.selected_item) });
  };
