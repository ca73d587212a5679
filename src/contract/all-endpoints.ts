import type { Endpoint } from './endpoint.ts';
import { checkoutEndpoints } from './checkout.ts';
import { labOrdersEndpoints } from './lab-orders.ts';
import { lineItemsEndpoints } from './line-items.ts';
import { orderToolsEndpoints } from './order-tools.ts';
import { ordersEndpoints } from './orders.ts';
import { photosEndpoints } from './photos.ts';
import { statusEndpoints } from './status.ts';

/**
 * Every endpoint of the contract, for the server's checks and the API tests (a contract endpoint
 * without a route fails tests/api/openapi.test.ts). The page never imports this: it would load
 * every schema.
 */
export const ALL_ENDPOINTS: readonly Endpoint[] = [
  statusEndpoints,
  labOrdersEndpoints,
  ordersEndpoints,
  photosEndpoints,
  lineItemsEndpoints,
  checkoutEndpoints,
  orderToolsEndpoints,
].flatMap((resource) => Object.values(resource));
