import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { serverStatus } from '../services/status-service.ts';

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
  };
