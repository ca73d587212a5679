import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_LOGO_BASE64_CHARS, packingSlipEndpoints as slip } from '../../src/contract/packing-slip.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { orderPackingSlip } from '../services/packing-slip-pdf.ts';
import { packingSlipIdentity, removeLogo, setLogo, setReturnAddress } from '../services/packing-slip-service.ts';

// Twice the longest logo: a file up to twice too large still hears the size rule in words (422);
// a larger body is refused unread (413).
const LOGO_BODY_LIMIT = 2 * MAX_LOGO_BASE64_CHARS;

/** The blind packing slip: the studio's identity on /account, and an order's slip for the lab. */
export const packingSlipRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({ ...routeOf(slip.get), handler: (request) => packingSlipIdentity(deps, request.actor) });
    app.route({ ...routeOf(slip.setReturnAddress), handler: (request) => setReturnAddress(deps, request.actor, request.body) });
    app.route({ ...routeOf(slip.setLogo), bodyLimit: LOGO_BODY_LIMIT, handler: (request) => setLogo(deps, request.actor, request.body) });
    app.route({ ...routeOf(slip.removeLogo), handler: (request) => removeLogo(deps, request.actor) });
    app.route({ ...routeOf(slip.orderSlip), handler: (request) => orderPackingSlip(deps, request.actor, request.params.guid) });
  };
