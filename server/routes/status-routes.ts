import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { currentClientVersion, serverStatus } from '../services/status-service.ts';

export const statusRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      API.status,
      {
        schema: {
          tags: ['status'],
          summary: 'Is the lab API up, and which version runs',
          response: { 200: z.object({ status: z.literal('ok'), version: z.string(), database: z.literal('ok'), server_time: z.string() }) },
        },
      },
      () => serverStatus(deps),
    );

    app.get(
      API.clientVersion,
      {
        schema: {
          tags: ['status'],
          summary: 'The version of the app build being served now; a running app that differs updates itself',
          response: { 200: z.object({ version: z.string() }) },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return { version: await currentClientVersion(deps.config.clientDir) };
      },
    );
  };
