import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { statusEndpoints } from '../../src/contract/status.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { createStatusCheck, currentClientVersion } from '../services/status-service.ts';

export const statusRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const serverStatus = createStatusCheck(deps);
    app.route({ ...routeOf(statusEndpoints.status), handler: () => serverStatus() });

    app.route({
      ...routeOf(statusEndpoints.clientConfig),
      handler: async (_request, reply) => {
        // Read at each start of the app: a changed setting reaches it with the next load.
        reply.header('cache-control', 'no-store');
        return { error_reporting: deps.config.sentry ? { dsn: deps.config.sentry.dsn, environment: deps.config.sentry.environment } : null };
      },
    });

    app.route({
      ...routeOf(statusEndpoints.clientVersion),
      handler: async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return { version: await currentClientVersion(deps.config.clientDir) };
      },
    });
  };
