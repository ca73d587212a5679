import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { guid, shippingMethodSchema, successSchema } from './shapes.ts';
import { PARTNER_EVENT_TYPES, WEBHOOK_URL_MAX } from '../domain/partner-webhooks.ts';

const tags = ['webhooks'];

const webhookSchema = z.object({
  guid: z.string(),
  url: z.string(),
  created_at: z.string(),
  secret_hint: z.string().describe('The last characters of the signing secret, to tell secrets apart.'),
});

const deliverySchema = z.object({
  guid: z.string(),
  event_id: z.string().describe('The same for every try and every webhook told of the event: drop repeats by it.'),
  event_type: z.enum(PARTNER_EVENT_TYPES),
  order_guid: z.string().nullable(),
  state: z.enum(['pending', 'delivered', 'failed', 'dropped']).describe('pending while waiting or retrying; failed after the last try.'),
  attempts: z.number(),
  last_status_code: z.number().nullable().describe('The HTTP status of the last try; null when the URL could not be reached.'),
  last_answer: z.string().nullable().describe("The start of the last try's answer, or why it could not be made."),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});

const webhookParam = z.object({ guid: guid('This webhook does not exist.') });
const deliveryParam = z.object({ guid: guid('This delivery does not exist.') });

/**
 * What a partner's URL receives (the API document's `webhooks`): one JSON event, signed as
 * Standard Webhooks sign them (docs/api.md, "Partner webhooks").
 */
export const partnerEventSchema = z.object({
  id: z.string().describe('The event id (also the webhook-id header).'),
  type: z.enum(PARTNER_EVENT_TYPES),
  created_at: z.string(),
  data: z.object({
    order: z.object({
      guid: z.string(),
      order_name: z.string(),
      status: z.string(),
      total: z.number(),
      paid_at: z.string().nullable(),
      shipped_at: z.string().nullable(),
      shipping_method: shippingMethodSchema,
      tracking_url: z.string().nullable().describe('The carrier\'s tracking link, once the lab has it (order.shipped).'),
      promised_ship_date: z.string().nullable().describe('The day (YYYY-MM-DD, UTC) the lab promises to ship by, once paid; moved by each delay.'),
    }),
    refund: z.object({ amount: z.number(), note: z.string().nullable() }).optional().describe('order.refunded only.'),
    delay: z
      .object({ old_ship_by: z.string().nullable(), new_ship_by: z.string(), reason: z.string() })
      .optional()
      .describe('order.delayed only: the promised ship date moved, and why.'),
  }),
});

/** Partner webhooks on /account: register, list, remove, and each one's recent deliveries. */
export const webhookEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/webhooks',
    tags,
    summary: 'Your webhooks (the signing secret is shown only when one is registered)',
    answers: { 200: z.object({ data: z.array(webhookSchema) }) },
  }),
  register: endpoint({
    method: 'POST',
    path: '/webhooks',
    tags,
    summary: 'Register a webhook URL; the answer holds its signing secret, shown this once',
    body: z.object({
      url: z.string().max(WEBHOOK_URL_MAX, { error: `The webhook URL can be at most ${WEBHOOK_URL_MAX} characters.` }).describe('An https address (http only outside production).'),
    }),
    answers: { ...errorAnswers(422), 201: z.object({ data: webhookSchema.extend({ secret: z.string().describe('whsec_… : keep it; it is not shown again.') }) }) },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/webhooks/:guid',
    tags,
    summary: 'Remove a webhook: nothing more is sent to it',
    params: webhookParam,
    answers: { ...errorAnswers(404), 200: successSchema },
  }),
  deliveries: endpoint({
    method: 'GET',
    path: '/webhooks/:guid/deliveries',
    tags,
    summary: "A webhook's most recent deliveries, newest first, with each one's last answer",
    params: webhookParam,
    answers: { ...errorAnswers(404), 200: z.object({ data: z.array(deliverySchema) }) },
  }),
  resend: endpoint({
    method: 'POST',
    path: '/webhook_deliveries/:guid/resend',
    tags,
    summary: 'Send a delivery again (same event id), whatever became of it',
    params: deliveryParam,
    answers: { ...errorAnswers(404), 200: z.object({ data: deliverySchema }) },
  }),
};
