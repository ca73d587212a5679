import { accountEndpoints } from './account.ts';
import { cardEndpoints } from './cards.ts';
import { catalogueEndpoints } from './catalogue.ts';
import { discountCodeEndpoints } from './discount-codes.ts';
import type { Endpoint } from './endpoint.ts';
import { passwordEndpoints } from './password.ts';
import { photographersEndpoints } from './photographers.ts';
import { sessionEndpoints } from './session.ts';
import { signupEndpoints } from './signup.ts';
import { checkoutEndpoints } from './checkout.ts';
import { labOrdersEndpoints } from './lab-orders.ts';
import { lineItemsEndpoints } from './line-items.ts';
import { orderToolsEndpoints } from './order-tools.ts';
import { ordersEndpoints } from './orders.ts';
import { photosEndpoints } from './photos.ts';
import { statusEndpoints } from './status.ts';
import { webhookEndpoints } from './webhooks.ts';
import { statusMailEndpoints } from './status-mails.ts';
import { packingSlipEndpoints } from './packing-slip.ts';

/**
 * Every endpoint of the contract, for the server's checks and the API tests (a contract endpoint
 * without a route fails tests/api/openapi.test.ts). The page never imports this: it would load
 * every schema.
 */
export const ALL_ENDPOINTS: readonly Endpoint[] = [
  statusEndpoints,
  sessionEndpoints,
  signupEndpoints,
  passwordEndpoints,
  accountEndpoints,
  cardEndpoints,
  catalogueEndpoints,
  photographersEndpoints,
  discountCodeEndpoints,
  webhookEndpoints,
  statusMailEndpoints,
  packingSlipEndpoints,
  labOrdersEndpoints,
  ordersEndpoints,
  photosEndpoints,
  lineItemsEndpoints,
  checkoutEndpoints,
  orderToolsEndpoints,
].flatMap((resource) => Object.values(resource));
