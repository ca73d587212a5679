import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { statusMailEndpoints } from '../../src/contract/status-mails.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { changeStatusMail, statusMailSwitches } from '../services/status-mail-service.ts';

/** The order status mails' switches on /account (src/contract/status-mails.ts). */
export const statusMailRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({ ...routeOf(statusMailEndpoints.get), handler: (request) => statusMailSwitches(deps, request.actor) });
    app.route({ ...routeOf(statusMailEndpoints.change), handler: (request) => changeStatusMail(deps, request.actor, request.body) });
  };
