import { apiRequest } from './client.ts';
import { callsThrough, type TypedCall } from './typed-call.ts';

/**
 * Calls one endpoint of the contract by its name (`GET /lab_orders/:guid`), with the input its
 * schemas take and the answer they give, through the page's HTTP client (token, time-out, error
 * body, 401 rule). The page never loads a schema: the contract is imported for its types only.
 */
export const call: TypedCall = callsThrough(apiRequest);
