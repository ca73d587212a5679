/**
 * The line-item calls through the app's HTTP client (token, time-out, error body, 401 rule).
 * Screens never call these: the outbox (src/offline/outbox-handlers.ts) and refreshOrder do.
 */
import { apiRequest } from './client.ts';
import { lineItemCalls, type LineItemCalls } from './line-item-calls.ts';

export const labLineItemApi: LineItemCalls = lineItemCalls(apiRequest);

export const { retrieveFullOrder, postLineItems, updateLineItem, updateQuantity, deleteLineItem, updateLabOrder } = labLineItemApi;
