/**
 * The whole lab API as the page calls it: each call's name (`GET /status`) mapped to its endpoint.
 * Types only: the page's bundle holds no schema and no zod (src/api/call.ts).
 */
import type { CallTable } from './endpoint.ts';
import type { checkoutEndpoints } from './checkout.ts';
import type { labOrdersEndpoints } from './lab-orders.ts';
import type { lineItemsEndpoints } from './line-items.ts';
import type { orderToolsEndpoints } from './order-tools.ts';
import type { ordersEndpoints } from './orders.ts';
import type { photosEndpoints } from './photos.ts';
import type { statusEndpoints } from './status.ts';

export type Contract = CallTable<typeof statusEndpoints> &
  CallTable<typeof labOrdersEndpoints> &
  CallTable<typeof ordersEndpoints> &
  CallTable<typeof photosEndpoints> &
  CallTable<typeof lineItemsEndpoints> &
  CallTable<typeof checkoutEndpoints> &
  CallTable<typeof orderToolsEndpoints>;

export type CallName = keyof Contract;
