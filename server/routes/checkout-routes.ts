import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkoutEndpoints } from '../../src/contract/checkout.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { checkout } from '../services/checkout-service.ts';
import { validateDiscountCode } from '../services/discount-service.ts';
import { removeDropShip, setDropShip } from '../services/drop-ship-service.ts';

/** Checkout and payment (issue 12, docs/api.md §8); the order's choices are PATCH /lab_orders/{id}, drop-ship its own call. */
export const checkoutRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const discountCheck = routeOf(checkoutEndpoints.validateDiscountCode);
    app.route({
      ...discountCheck,
      // Guessing codes is a lookup like the others: LOOKUP_RATE_LIMIT a minute.
      config: { ...discountCheck.config, rateLimit: { max: deps.config.lookupRateLimit, timeWindow: 60_000 } },
      handler: (request) => validateDiscountCode(deps, request.actor, request.body.code),
    });

    app.route({ ...routeOf(checkoutEndpoints.setDropShip), handler: (request) => setDropShip(deps, request.actor, request.params.guid, request.body) });

    app.route({ ...routeOf(checkoutEndpoints.removeDropShip), handler: (request) => removeDropShip(deps, request.actor, request.params.guid) });

    app.route({
      ...routeOf(checkoutEndpoints.checkout),
      handler: (request) => {
        const slot = request.idempotencySlot;
        return checkout({ ...deps, log: request.log }, request.actor, request.params.guid, request.body ?? {}, slot ? `${slot.scope}:${slot.key}` : null);
      },
    });
  };
