import { z } from 'zod';
import { ORDER_STATUSES } from '../domain/order-status.ts';
import { MIN_PASSWORD_LENGTH, PASSWORD_RULE } from '../domain/password-rule.ts';
import { SHIPPING_SPEEDS } from '../domain/shipping-speeds.ts';

/** Shapes that several resources' endpoints share (docs/api.md). */
export const successSchema = z.object({ success: z.literal(true) });

/** The answer of login, sign-up, reset_password and login_as_user. */
export const sessionAnswerSchema = z.object({
  token: z.string(),
  // The user's own guid, which account calls name (PATCH /users/{guid}, certificate uploads).
  guid: z.string(),
  intercom_user_hash: z.string(),
  email: z.string(),
  name: z.string(),
  business_name: z.string(),
  // Lets the app show admin-only navigation at once; the server still checks every call.
  is_admin: z.boolean(),
});

export const listMetaSchema = z.object({
  current_user_is_admin: z.boolean(),
  current_user_is_api_vendor: z.boolean(),
  view_as_photographer_id: z.string().nullable(),
  view_as_photographer: z.string().nullable(),
});

/**
 * A guid in a path or a body: accepted in any letter case and handed on in lower case, so a
 * caller's own guid in upper case is still theirs (guids are compared as text in services).
 * Every guid a route takes goes through this one schema.
 */
export const guid = (message: string) => z.uuid({ error: message }).toLowerCase();

/** A guid, or '' to clear a choice (the primary address or card). */
export const guidOrEmpty = (message: string) => z.union([z.literal(''), guid(message)]);

/** An order as every list and record shows it (server/services/lab-orders-service.ts orderSummary). */
export const orderSummaryAttributes = z.object({
  id: z.number(),
  guid: z.string(),
  order_name: z.string(),
  // The one list of statuses (src/domain/order-status.ts), which the server's admin changes keep to.
  status: z.enum(ORDER_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  paid_at: z.string().nullable(),
  photographer_id: z.string(),
  photographer_name: z.string(),
  photographer_business: z.string(),
  photographer_email: z.string(),
});

/** A new password (sign-up, reset): the services' minimum, with their message. */
export const newPassword = z.string().min(MIN_PASSWORD_LENGTH, PASSWORD_RULE).max(1000);

/**
 * A saved address as the lab answers it: the account's addresses and an order's shipping address
 * both start from this. `state_province` is the state as the address holds it.
 */
export const savedAddress = z.object({
  guid: z.string(),
  recipient: z.string().nullable(),
  street: z.string(),
  street_2: z.string().nullable(),
  city: z.string(),
  state_province: z.string(),
  zip: z.string(),
});

/**
 * The shipping address an order carries (chosen at checkout, kept with the order): the lab keeps
 * a copy, so the zip is always there even if the profile's address is removed later.
 */
export const orderShippingAddressSchema = savedAddress.extend({
  phone_number: z.string().nullable(),
  email: z.string().nullable(),
});

/** `shipping_method` on the wire: the order's shipping speed, or local pickup (nothing ships). */
export const shippingMethodSchema = z.enum([...SHIPPING_SPEEDS, 'local_pickup']);

const nonBlank = (message: string) => z.string().trim().min(1, message).max(200);

/** A new address as the address forms send it (POST /addresses): the lab's rules for each field. */
export const addressInput = z.object({
  street_address: nonBlank('Enter the street address.'),
  street_address_two: z.string().max(200).optional(),
  recipient_name: z.string().max(200).optional(),
  city: nonBlank('Enter the city.'),
  state: nonBlank('Enter the state.'),
  zip: z.string().max(20, 'The zip code is 5 digits.').trim().regex(/^\d{5}$/, 'The zip code is 5 digits.'),
});

/** Drop-ship (PUT /lab_orders/{id}/drop_ship): the photographer's client, named, at an address checked like the address form's. */
export const clientAddressInput = addressInput.extend({ recipient_name: nonBlank("Enter your client's name.") });

/** The client an order ships to (drop-ship), as the order carries it. */
export const clientAddressSchema = z.object({ recipient: z.string(), street: z.string(), street_2: z.string().nullable(), city: z.string(), state_province: z.string(), zip: z.string() });

export type ShippingAddress = z.output<typeof orderShippingAddressSchema>;
