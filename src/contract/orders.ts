import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { orderListFields } from './lab-orders.ts';
import { changeOrderBody, checkoutAttributesSchema, fullOrderSchema, serverLineItemSchema } from './line-items.ts';
import { photoSchema } from './photos.ts';
import { guid, listMetaSchema, orderSummaryAttributes, successSchema } from './shapes.ts';

/** The PATCH /lab_orders/{id} types the checkout carries out; the admin's types are in the server's admin-order-changes.ts. */
export const ORDER_CHANGE_TYPES = ['discount_code', 'credit', 'used_saved_card', 'local_pickup', 'shipping_address_id', 'boutique_shipping', 'shipping_method', 'blind_slip', 'permission_to_share', 'updated_at'] as const;

// Order names are shown on cards and in mails; 120 characters is more than any studio uses.
const ORDER_NAME_MAX = 120;
/** A new order's name (also a reorder's). */
export const orderNameBody = z.object({ order_name: z.string().trim().min(1, 'Enter an order name.').max(ORDER_NAME_MAX, `An order name can be at most ${ORDER_NAME_MAX} characters.`) });

const orderEvent = z.object({
  kind: z.string(),
  actor_guid: z.string().nullable(),
  actor_name: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  detail: z.string().nullable(),
  created_at: z.string(),
});
const refundSchema = z.object({
  amount: z.number(),
  note: z.string().nullable(),
  status: z.string().describe("'pending' until the provider's answer is recorded (a crash's is settled within minutes), then 'succeeded'."),
  actor_guid: z.string().nullable(),
  provider_refund_id: z.string().nullable(),
  created_at: z.string(),
});

/** A custom album order (docs/orders.md §3 Album), read-only. */
export const albumSchema = z.object({
  id: z.string(),
  guid: z.string(),
  description: z.string(),
  outer_fabric_name: z.string().nullable(),
  inner_fabric_name: z.string().nullable(),
  font: z.string().nullable(),
  spread_quantity: z.number(),
  stamping: z.string().nullable(),
  upper_text_value: z.string().nullable(),
  upper_text_font_size: z.number().nullable(),
  lower_text_value: z.string().nullable(),
  lower_text_font_size: z.number().nullable(),
  text_font: z.string().nullable(),
  text_color: z.string().nullable(),
  total_price: z.number(),
  album_photos: z.array(z.object({ photo_guid: z.string(), photo_file_name: z.string(), photo_url: z.string(), photo_full_url: z.string() })),
});

/** Admins only: present in an admin's answer, absent in a photographer's. */
const adminOrderAttributes = z.object({
  internal_notes: z.string().nullable(),
  events: z.array(orderEvent).describe('Newest first.'),
  refunds: z.array(refundSchema),
  download_all_link: z.string().nullable(),
  zip_requested_at: z.string().nullable().describe('Set while the zip is being built.'),
  last_sent_to_vendor_at: z.string().nullable(),
  vendor_send_status: z
    .object({ state: z.enum(['queued', 'retrying', 'sent', 'failed']), detail: z.string().nullable(), at: z.string() })
    .nullable()
    .describe("The latest send to the vendor: queued, retrying after a failure, sent, or failed once its retries ran out (SEND AGAIN); null when never sent."),
  vendor_configured: z.boolean().describe('Whether the lab has a vendor API to send orders to (VENDOR_API_URL); SEND TO VENDOR is offered only then.'),
  photographer: z.object({ guid: z.string(), name: z.string(), business: z.string(), email: z.string() }),
});

const orderAttributes = orderSummaryAttributes.extend({
  subtotal: z.number(),
  discount: z.number(),
  credit_applied: z.number(),
  shipping_total: z.number(),
  total: z.number(),
  photo_count: z.number(),
  images: z.array(photoSchema),
  line_items: z.array(serverLineItemSchema),
  notes: z.string().nullable(),
  shipped_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  refund_amount: z.number().describe('Dollars refunded so far.'),
  cancel_until: z
    .string()
    .nullable()
    .optional()
    .describe('GET only: paid_at plus CANCEL_WINDOW_MINUTES (null before payment); the photographer may cancel while the status is still paid and before this.'),
  album_line_items: z.array(albumSchema).optional().describe('Custom albums of the order (GET /lab_orders/{guid}).'),
})
  .extend(orderListFields.shape)
  .extend(checkoutAttributesSchema.shape)
  .extend(adminOrderAttributes.partial().shape);
const orderResource = z.object({ id: z.string(), type: z.literal('lab_order'), attributes: orderAttributes });


const orderParams = z.object({ guid: guid('This order does not exist.') });

/** New orders, one order with its photos, its changes and its deletion (docs/orders.md §2 New order, §7). */
export const ordersEndpoints = {
  checkUniqueOrderName: endpoint({
    method: 'POST',
    path: '/check_unique_order_name',
    tags: ['lab orders'],
    summary: 'Success when the caller already has an order of this name (taken); 404 when it is free',
    body: orderNameBody,
    answers: { ...errorAnswers(404), 200: successSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/lab_orders',
    tags: ['lab orders'],
    summary: 'A new open order of the caller (a name they already use is refused)',
    body: orderNameBody,
    answers: { 201: z.object({ data: orderResource }) },
  }),
  get: endpoint({
    method: 'GET',
    path: '/lab_orders/:guid',
    tags: ['lab orders'],
    summary: "One order with its first photos (photo_count says how many; lab_order_photographs pages them): the owner's, or any for an admin",
    params: orderParams,
    answers: { 200: z.object({ data: orderResource, included: z.array(z.unknown()), meta: listMetaSchema }) },
  }),
  change: endpoint({
    method: 'PATCH',
    path: '/lab_orders/:guid',
    tags: ['line items'],
    summary: `Changes an order by {type, value} (types: ${ORDER_CHANGE_TYPES.join(', ')}; boutique_shipping also takes boutique_shipping_note; shipping_method takes standard, two_day or overnight, priced by the catalogue, and turns local pickup off): the owner or an admin, while open (updated_at 'now' on any order); answers the checkout order`,
    params: orderParams,
    body: changeOrderBody,
    answers: { ...errorAnswers(403), 200: fullOrderSchema },
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/lab_orders/:guid',
    tags: ['lab orders'],
    summary: "Deletes an open order with its photos and line items: the owner's, or any for an admin; 422 once it is paid",
    params: orderParams,
    answers: { ...errorAnswers(403), 200: successSchema },
  }),
};
