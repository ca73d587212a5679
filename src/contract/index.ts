/**
 * The whole lab API as the page calls it: each call's name (`GET /status`) mapped to its endpoint.
 * Types only: the page's bundle holds no schema and no zod (src/api/call.ts).
 */
import type { CallTable } from './endpoint.ts';
import type { statusEndpoints } from './status.ts';
import type { webhookEndpoints } from './webhooks.ts';

export type Contract = CallTable<typeof statusEndpoints> & CallTable<typeof webhookEndpoints>;

export type CallName = keyof Contract;
