import { z } from 'zod';
import { LOGO_TOO_LARGE, MAX_LOGO_BYTES, RETURN_ADDRESS_MAX } from '../domain/packing-slip.ts';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { guid } from './shapes.ts';

const tags = ['account'];

// Base64 carries 3 bytes in 4 characters: the longest text of a logo at the size limit, with room
// for the prefix of a data: URL (the page sends what FileReader reads).
export const MAX_LOGO_BASE64_CHARS = Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 128;

const field = (name: keyof typeof RETURN_ADDRESS_MAX, message: string) =>
  z.string().trim().min(1, message).max(RETURN_ADDRESS_MAX[name], `The ${name.replace('_', ' ')} is at most ${RETURN_ADDRESS_MAX[name]} characters.`);

const returnAddressSchema = z.object({
  name: field('name', 'Enter the name the parcel comes back to.'),
  street: field('street', 'Enter the street address.'),
  street_2: z.string().trim().max(RETURN_ADDRESS_MAX.street_2, `The street 2 is at most ${RETURN_ADDRESS_MAX.street_2} characters.`).nullable(),
  city: field('city', 'Enter the city.'),
  state: field('state', 'Enter the state.'),
  zip: field('zip', 'Enter the zip code.'),
});

/** The studio's packing-slip identity: the business name (the profile's), the logo and the return address. */
const identitySchema = z.object({
  data: z.object({
    business_name: z.string(),
    return_address: returnAddressSchema.nullable(),
    // Signed for the owner only, short-lived; null without a logo.
    logo_link: z.string().nullable(),
  }),
});

/** The blind packing slip (white label) of drop-shipped orders (docs/lab-rules.md §9). */
export const packingSlipEndpoints = {
  get: endpoint({
    method: 'GET',
    path: '/accounts/packing_slip',
    tags,
    summary: "Your packing-slip identity: business name, return address and a link to your logo",
    answers: { 200: identitySchema },
  }),
  setReturnAddress: endpoint({
    method: 'PUT',
    path: '/accounts/packing_slip/return_address',
    tags,
    summary: 'Sets (or with null clears) the return address printed on your blind packing slips',
    body: z.object({ return_address: returnAddressSchema.nullable() }),
    answers: { 200: identitySchema },
  }),
  setLogo: endpoint({
    method: 'PUT',
    path: '/accounts/packing_slip/logo',
    tags,
    summary: `Your logo for blind packing slips: a JPEG or PNG of at most ${MAX_LOGO_BYTES / 1024 / 1024} MB, as base64; checked by content and kept as the slip's JPEG`,
    body: z.object({ data: z.string().min(1, 'Choose a logo file.').max(MAX_LOGO_BASE64_CHARS, LOGO_TOO_LARGE) }),
    answers: { 200: identitySchema },
  }),
  removeLogo: endpoint({
    method: 'DELETE',
    path: '/accounts/packing_slip/logo',
    tags,
    summary: 'Removes your logo from your blind packing slips',
    answers: { 200: identitySchema },
  }),
  orderSlip: endpoint({
    method: 'GET',
    path: '/lab_orders/:guid/packing_slip',
    tags: ['lab orders'],
    summary: "Admins: the order's blind packing slip as a PDF, by a signed link; 422 when the order has none",
    params: z.object({ guid: guid('This order does not exist.') }),
    answers: { ...errorAnswers(403), 200: z.object({ packing_slip_link: z.string() }) },
  }),
};
