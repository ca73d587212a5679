import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { listLabOrders } from '../services/lab-orders-service.ts';
import { listMetaSchema } from './shapes.ts';

const labOrderListItem = z.object({
  id: z.string(),
  type: z.literal('lab_order'),
  attributes: z.object({
    id: z.number(),
    guid: z.string(),
    order_name: z.string(),
    status: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    paid_at: z.string().nullable(),
    photographer_id: z.string(),
    photographer_name: z.string(),
    photographer_business: z.string(),
    photographer_email: z.string(),
  }),
});

export const labOrdersRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      API.labOrders,
      {
        schema: {
          tags: ['lab orders'],
          summary: 'Orders the caller may see: all for admins, their own for photographers',
          response: { 200: z.object({ data: z.array(labOrderListItem), meta: listMetaSchema }) },
        },
      },
      (request) => listLabOrders(deps.db, request.actor),
    );
  };
