import type { Endpoint } from './endpoint.ts';
import { statusEndpoints } from './status.ts';
import { webhookEndpoints } from './webhooks.ts';

/**
 * Every endpoint of the contract, for the server's checks and the API tests (a contract endpoint
 * without a route fails tests/api/openapi.test.ts). The page never imports this: it would load
 * every schema.
 */
export const ALL_ENDPOINTS: readonly Endpoint[] = [statusEndpoints, webhookEndpoints].flatMap((resource) => Object.values(resource));
