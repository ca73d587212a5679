/**
 * The whole lab API as the page calls it: each call's name (`GET /status`) mapped to its endpoint.
 * Types only: the page's bundle holds no schema and no zod (src/api/call.ts).
 */
import type { accountEndpoints } from './account.ts';
import type { cardEndpoints } from './cards.ts';
import type { catalogueEndpoints } from './catalogue.ts';
import type { discountCodeEndpoints } from './discount-codes.ts';
import type { CallTable } from './endpoint.ts';
import type { passwordEndpoints } from './password.ts';
import type { photographersEndpoints } from './photographers.ts';
import type { sessionEndpoints } from './session.ts';
import type { signupEndpoints } from './signup.ts';
import type { checkoutEndpoints } from './checkout.ts';
import type { labOrdersEndpoints } from './lab-orders.ts';
import type { lineItemsEndpoints } from './line-items.ts';
import type { orderToolsEndpoints } from './order-tools.ts';
import type { ordersEndpoints } from './orders.ts';
import type { photosEndpoints } from './photos.ts';
import type { statusEndpoints } from './status.ts';
import type { webhookEndpoints } from './webhooks.ts';
import type { statusMailEndpoints } from './status-mails.ts';
import type { packingSlipEndpoints } from './packing-slip.ts';

export type Contract = CallTable<typeof statusEndpoints> &
  CallTable<typeof sessionEndpoints> &
  CallTable<typeof signupEndpoints> &
  CallTable<typeof passwordEndpoints> &
  CallTable<typeof accountEndpoints> &
  CallTable<typeof cardEndpoints> &
  CallTable<typeof catalogueEndpoints> &
  CallTable<typeof photographersEndpoints> &
  CallTable<typeof discountCodeEndpoints> &
  CallTable<typeof webhookEndpoints> &
  CallTable<typeof statusMailEndpoints> &
  CallTable<typeof packingSlipEndpoints> &
  CallTable<typeof labOrdersEndpoints> &
  CallTable<typeof ordersEndpoints> &
  CallTable<typeof photosEndpoints> &
  CallTable<typeof lineItemsEndpoints> &
  CallTable<typeof checkoutEndpoints> &
  CallTable<typeof orderToolsEndpoints>;

export type CallName = keyof Contract;
