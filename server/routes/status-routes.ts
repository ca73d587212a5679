import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { createStatusCheck, currentClientVersion } from '../services/status-service.ts';
import { errorAnswers } from '../http/errors.ts';

export const statusRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const serverStatus = createStatusCheck(deps);
    app.get(
      API.status,
      {
        schema: {
          tags: ['status'],
          summary: 'Is the lab API up, and which version runs',
          response: { 200: z.object({ status: z.literal('ok'), version: z.string(), database: z.literal('ok'), server_time: z.string() }) },
        },
        config: { public: true },
      },
      () => serverStatus(),
    );

    app.get(
      API.clientConfig,
      {
        schema: {
          tags: ['status'],
          summary: 'What the app needs before anyone signs in: where it reports its errors (null when error reporting is off)',
          response: { 200: z.object({ error_reporting: z.object({ dsn: z.string(), environment: z.string() }).nullable() }) },
        },
        config: { public: true },
      },
      async (_request, reply) => {
        // Read at each start of the app: a changed setting reaches it with the next load.
        reply.header('cache-control', 'no-store');
        return { error_reporting: deps.config.sentry ? { dsn: deps.config.sentry.dsn, environment: deps.config.sentry.environment } : null };
      },
    );

    app.get(
      API.clientVersion,
      {
        schema: {
          tags: ['status'],
          summary: 'The version of the app build being served now; a running app that differs updates itself',
          response: { ...errorAnswers(404), 200: z.object({ version: z.string() }) },
        },
        config: { public: true },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return { version: await currentClientVersion(deps.config.clientDir) };
      },
    );
  };
