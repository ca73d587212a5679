/** Partner webhooks' rules that the server and the account screen share (docs/api.md). */

/** The order events a partner's webhook is told of, in the order an order meets them. */
export const PARTNER_EVENT_TYPES = ['order.accepted', 'order.printing', 'order.shipped', 'order.cancelled', 'order.refunded', 'order.delayed'] as const;
export type PartnerEventType = (typeof PARTNER_EVENT_TYPES)[number];

// A URL, not a document; longer ones are mistakes.
export const WEBHOOK_URL_MAX = 500;
// Webhooks a partner needs: one per system they run (a gallery, a CRM, a test receiver…).
export const WEBHOOKS_PER_ACCOUNT = 5;

export const WEBHOOK_URL_RULE = 'The webhook URL must be an https address, like https://example.com/lab-events.';
export const TOO_MANY_WEBHOOKS = `An account can have at most ${WEBHOOKS_PER_ACCOUNT} webhooks. Remove one first.`;
