import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { webhookEndpoints } from '../../src/contract/webhooks.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { listWebhooks, registerWebhook, removeWebhook, resendDelivery, webhookDeliveryLog } from '../services/webhook-service.ts';

/** Partner webhooks on /account (src/contract/webhooks.ts). */
export const webhookRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const register = routeOf(webhookEndpoints.register);
    app.route({ ...routeOf(webhookEndpoints.list), handler: (request) => listWebhooks(deps, request.actor) });
    app.route({
      ...register,
      // The answer holds the signing secret: the replay of a double click or a lost answer gives
      // it back, so the stored answer is sealed (http/idempotency.ts).
      config: { ...register.config, idempotency: 'sealed' },
      handler: async (request, reply) => reply.code(201).send(await registerWebhook(deps, request.actor, request.body)),
    });
    app.route({ ...routeOf(webhookEndpoints.remove), handler: (request) => removeWebhook(deps, request.actor, request.params.guid) });
    app.route({ ...routeOf(webhookEndpoints.deliveries), handler: (request) => webhookDeliveryLog(deps, request.actor, request.params.guid) });
    app.route({ ...routeOf(webhookEndpoints.resend), handler: (request) => resendDelivery(deps, request.actor, request.params.guid) });
  };
