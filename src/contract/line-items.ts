import { z } from 'zod';
import { BORDERS, FINISHING_CATEGORIES, type BorderValue } from '../domain/catalogue.ts';
import { LINE_ITEM_BATCH_SIZE } from '../domain/line-item-payload.ts';
import { NOTES_MAX } from '../domain/notes.ts';
import { MAX_QUANTITY } from '../domain/quantity.ts';
import { endpoint } from './endpoint.ts';
import { clientAddressSchema, guid, listMetaSchema, orderShippingAddressSchema, orderSummaryAttributes, shippingMethodSchema } from './shapes.ts';

/** The wire of the cart (docs/api.md §9; src/client-rules/line-items.ts, src/domain/line-item-payload.ts). */

const BORDER_VALUES = BORDERS.map((b) => b.value) as [BorderValue, ...BorderValue[]];
// A frame takes the most details: mat, glass and stain; a little room for the categories to come.
const MAX_DETAILS = 5;
const CROP_RANGE = 'Crop values are numbers in percent of the photo, from 0 to 100.';
const percent = z.number({ error: CROP_RANGE }).min(0, CROP_RANGE).max(100, CROP_RANGE);

/** One line item as the client sends it. Prices it may send are not read. */
export const lineItemPayloadSchema = z.object({
  guid: guid('Each line item needs an id of its own: a uuid made by the client.')
    .optional()
    .describe('A uuid the client makes, so a retried request is the same line item; without it the lab makes one (send an Idempotency-Key to retry safely).'),
  imageName: z.string().max(255).optional(),
  quantity: z.unknown().describe(`A whole number from 1 to ${MAX_QUANTITY}; anything else is refused with 400.`),
  print_size: guid('This print size is not offered.').describe('A print-size-pricing guid of the active catalogue.'),
  finishing_service: guid('This finishing is not offered.').nullable().describe('A finishing service guid; null for NONE.'),
  finishing_service_detail: guid('This finishing detail is not offered.').nullable().optional(),
  finishing_service_details: z.array(guid('This finishing detail is not offered.')).max(MAX_DETAILS).optional().describe('Every chosen detail guid; what the server prices.'),
  print_border: z.enum(BORDER_VALUES, { error: `print_border is one of ${BORDER_VALUES.join(', ')}.` }).default('none'),
  notes: z.string().max(NOTES_MAX, `Notes can be at most ${NOTES_MAX} characters.`).nullable().optional(),
  source_photograph_guid: guid('This photo is not in the order.'),
  photograph: z.object({
    source_photograph_guid: guid('This photo is not in the order.'),
    crop_x: percent,
    crop_y: percent,
    crop_h: percent,
    crop_w: percent,
    photo_meta: z.record(z.string(), z.unknown()).optional().describe('`aspect` (crop width / height) when the builder knows it.'),
  }),
});

export const addLineItemsBody = z.object({
  line_items: z
    .array(lineItemPayloadSchema)
    .min(1, 'Send at least one line item.')
    .max(LINE_ITEM_BATCH_SIZE, `Send at most ${LINE_ITEM_BATCH_SIZE} line items at a time.`),
});

export const updateLineItemBody = z.object({
  line_items: z.array(lineItemPayloadSchema.partial({ guid: true })).length(1, 'Send the one line item to update.'),
});

export const updateQuantityBody = z.object({
  line_items: z.array(z.object({ quantity: z.unknown() })).max(1).optional(),
  qty: z.unknown().optional(),
});

export const changeOrderBody = z.object({
  type: z.string().min(1, 'Name the change.').max(50),
  // A code, an id, an amount, a flag or 'now', by type; each type checks its own.
  // Numbers are bounded as the database's integers are; each type applies its own rule within.
  // The longest is the admin note (internal_notes, 5000 characters); a little longer here, so a
  // note over the rule is answered with the rule's own message (422), not a schema's.
  value: z.union([z.string().max(6000), z.number().min(-2_000_000_000).max(2_000_000_000), z.boolean()]).optional(),
  // Longer than the rule (300, answered 422 with its message) so a long note is told the rule.
  boutique_shipping_note: z.string().max(2000).optional(),
  // A status change of an unpaid order to printing, framing or shipped needs it; longer than the
  // rule (300, answered 422 with its message) so a long reason is told the rule.
  reason: z.string().max(2000).optional().describe('Why an unpaid order may go to printing, framing or shipped (admins); recorded in its history.'),
});

const finishingSchema = z.object({
  finishing_category: z.enum(FINISHING_CATEGORIES),
  finishing_service: z.string(),
  finishing_service_guid: z.string(),
  finishing_service_detail: z.string().nullable(),
  finishing_service_detail_guid: z.string().nullable(),
  finishing_service_detail_two_guid: z.string().nullable(),
  finishing_service_detail_three_guid: z.string().nullable(),
  formatted_frame_profile: z.string().nullable(),
  formatted_detail_one: z.string().nullable(),
  formatted_detail_two: z.string().nullable(),
  formatted_detail_three: z.string().nullable(),
  price: z.number(),
});

export const serverLineItemSchema = z.object({
  guid: z.string(),
  photograph_guid: z.string(),
  photograph_url: z.string(),
  photograph_cropped_url: z.string().nullable(),
  photograph_full_url: z.string(),
  photo_file_name: z.string(),
  print_size_attributes: z.object({ paper: z.string(), paper_guid: z.string(), print_size: z.string(), print_size_guid: z.string(), price: z.number() }),
  print_border: z.string(),
  external_id: z.string().nullable(),
  notes: z.string().nullable(),
  internal_notes: z.string().nullable(),
  photograph_attributes: z.object({ crop_x: z.number(), crop_y: z.number(), crop_h: z.number(), crop_w: z.number(), aspect: z.number().nullable() }),
  quantity: z.number(),
  subtotal: z.number(),
  finishing_service: finishingSchema.nullable(),
});

/** A line item as the lab answers it (money in dollars): the builder, the review and the order detail read it. */
export type ServerLineItem = z.output<typeof serverLineItemSchema>;

export const orderMoneySchema = z.object({ subtotal: z.number(), discount: z.number(), credit_applied: z.number(), shipping_total: z.number(), total: z.number() });

/** The checkout attributes of the order (docs/api.md §8); money in dollars. */
export const checkoutAttributesSchema = z.object({
  discount_code: z.object({ code: z.string() }).nullable(),
  boutique_shipping: z.boolean(),
  boutique_shipping_note: z.string().nullable(),
  boutique_shipping_price: z.number(),
  eligible_for_boutique_shipping: z.boolean(),
  blind_slip: z.boolean().describe('A packing slip in the studio\'s name, logo and return address, with no lab name and no prices.'),
  blind_slip_allowed: z.boolean().describe('Whether this order may carry a blind packing slip (an order the lab ships).'),
  local_pickup: z.boolean(),
  shipping_method: shippingMethodSchema.describe('the shipping speed chosen at checkout (PATCH type shipping_method), priced by the catalogue; local_pickup while picked up'),
  shipping_address: orderShippingAddressSchema.nullable(),
  drop_ship_address: clientAddressSchema.nullable().describe("the photographer's client the order ships to (drop-ship), instead of shipping_address; never one of the photographer's saved addresses"),
  drop_ship_fee: z.number().describe("the catalogue's drop-ship fee in dollars while the order ships to the client; 0 otherwise"),
  prints_total: z.number().describe('of the subtotal, the prints (and custom albums), in dollars'),
  finishing_total: z.number().describe('of the subtotal, the finishing with its details, in dollars'),
  selected_card_to_use: z.string().nullable(),
  selected_card_mask: z.string().nullable(),
  used_saved_card: z.boolean(),
  permission_to_share: z.boolean(),
  stripe_order_confirmation: z.string().nullable(),
  client_name: z.string().nullable(),
});

/** Days are YYYY-MM-DD in UTC (docs/lab-rules.md, "Turnaround"); arrival is null for local pickup. */
export const shipDatesSchema = z.object({ ship_by: z.string(), arrives_from: z.string().nullable(), arrives_to: z.string().nullable() });
export const orderDelaySchema = z.object({
  old_ship_by: z.string().nullable(),
  new_ship_by: z.string(),
  reason: z.string(),
  declared_by: z.enum(['schedule', 'admin']).describe("schedule: the order passed its promised day unshipped; admin: the lab's word, with its reason."),
  declared_at: z.string(),
});

/** retrieve_full_order, and the answer of update_quantity, delete and PATCH /lab_orders/{id}. */
export const fullOrderSchema = z.object({
  data: z.object({
    id: z.string(),
    type: z.literal('lab_order'),
    attributes: orderSummaryAttributes
      .extend(orderMoneySchema.shape)
      .extend({ notes: z.string().nullable() })
      .extend(checkoutAttributesSchema.shape)
      .extend({
        urgent: z.boolean(),
        color_correction: z.enum(['lab', 'as_is']),
        tracking_url: z.string().nullable(),
        shipped_at: z.string().nullable(),
        ship_dates: shipDatesSchema.nullable().describe('Open: the dates if paid today; paid: the promised ones (moved by each delay); null once cancelled.'),
        delays: z.array(orderDelaySchema).describe('Each time the promised ship date moved, oldest first.'),
        internal_notes: z.string().nullable().optional().describe('Admins only.'),
      }),
    line_items: z.array(serverLineItemSchema),
  }),
  meta: listMetaSchema.extend({
    line_items_next_cursor: z.string().nullable().optional().describe('Paged reads only: where the next page starts; null on the last page.'),
  }),
});

/** The answer of the calls that add or change line items: the line items and the order's new figures. */
export const cartMeta = listMetaSchema.extend({ order: orderMoneySchema });

const orderGuid = guid('This order does not exist.');
const lineItemGuid = guid('This line item does not exist.');
const tags = ['line items'];
// The most line items one answer of retrieve_full_order carries when paged (the device reads a
// 1,000-photo order in pages of LINE_ITEM_READ_PAGE, src/offline/order-read.ts).
const MAX_LINE_ITEMS_PER_PAGE = 500;
const PER_PAGE_MESSAGE = `line_items_per_page must be a whole number from 1 to ${MAX_LINE_ITEMS_PER_PAGE}.`;
const fullOrderQuery = z.object({
  line_items_per_page: z.coerce
    .number({ error: PER_PAGE_MESSAGE })
    .int({ error: PER_PAGE_MESSAGE })
    .min(1, { error: PER_PAGE_MESSAGE })
    .max(MAX_LINE_ITEMS_PER_PAGE, { error: PER_PAGE_MESSAGE })
    .optional()
    .describe('Page the line items: at most this many, in the order they were added. Without it, every line item.'),
  line_items_cursor: z.string().max(100).optional().describe('meta.line_items_next_cursor of the page before (with line_items_per_page).'),
});

/** The cart of an order: the order builder, cart review and cart preview (docs/orders.md §7; docs/api.md §9. */
export const lineItemsEndpoints = {
  retrieveFullOrder: endpoint({
    method: 'GET',
    path: '/lab_orders/:guid/retrieve_full_order',
    tags,
    summary: "The order with its figures and every line item (or a page of them), for the builder and the review: the owner's, or any for an admin",
    params: z.object({ guid: orderGuid }),
    query: fullOrderQuery,
    answers: { 200: fullOrderSchema },
  }),
  addLineItems: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/line_items',
    tags,
    summary: 'Adds 1 to 30 line items, each with a client-made guid (or one the lab makes); a guid already in the order is a replay; the same product of a photo raises its line by 1. Priced by the server.',
    params: z.object({ guid: orderGuid }),
    body: addLineItemsBody,
    answers: { 201: z.object({ data: z.array(serverLineItemSchema), meta: cartMeta }) },
  }),
  updateLineItem: endpoint({
    method: 'PATCH',
    path: '/lab_orders/:guid/line_items/:lineItemGuid',
    tags,
    summary: 'Changes a line item: product, crop, notes and quantity, priced again',
    params: z.object({ guid: orderGuid, lineItemGuid }),
    body: updateLineItemBody,
    answers: { 200: z.object({ data: serverLineItemSchema, meta: cartMeta }) },
  }),
  updateQuantity: endpoint({
    method: 'PATCH',
    path: '/line_items/:guid/update_quantity',
    tags,
    summary: 'Sets the quantity of a line item ({line_items:[{quantity}]} or {qty}); answers the whole order',
    params: z.object({ guid: lineItemGuid }),
    body: updateQuantityBody,
    answers: { 200: fullOrderSchema },
  }),
  deleteLineItem: endpoint({
    method: 'DELETE',
    path: '/line_items/:guid',
    tags,
    summary: 'Removes a line item (404 when already gone); answers the whole order',
    params: z.object({ guid: lineItemGuid }),
    answers: { 200: fullOrderSchema },
  }),
};
