import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, PASSWORD_RULE } from '../domain/password-rule.ts';
import { FIRST_REPORT_YEAR, reportYearsRule } from '../domain/tax-reports.ts';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { photographerSchema } from './photographers.ts';
import { addressInput, guid, guidOrEmpty, savedAddress, successSchema } from './shapes.ts';

const tags = ['account'];

const userSchema = z.object({
  guid: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  business_name: z.string(),
  business_url: z.string().nullable(),
  social_media_url: z.string().nullable(),
  phone: z.string().nullable(),
  stripe_customer_id: z.string().nullable(),
  blanket_certificate_of_resale_link: z.string().nullable(),
  referral_code: z.string().nullable(),
  referred_users: z.number(),
  referred_by_email: z.string().nullable(),
  credit_available: z.number(),
  user_approved: z.boolean(),
  tn_business: z.boolean().nullable(),
});

/** The profile answer (docs/accounts.md §7), also the answer of the address and card calls. */
export const profileSchema = z.object({
  user: userSchema,
  cards: z.object({ data: z.array(z.object({ id: z.string(), masked_card: z.string() })) }),
  // `state` repeats state_province: the account page's older name for it.
  // state before zip, as the service writes it: the kept profile's JSON (profile-cache.ts) and a
  // fresh one are the same bytes.
  addresses: z.object({ data: z.array(savedAddress.omit({ zip: true }).extend({ state: z.string(), zip: z.string() })) }),
  default_card: z.string().nullable(),
  default_address: z.string().nullable(),
  shop_connection: z.object({
    code: z.string(),
    shops: z.array(z.string()),
    pending: z.array(z.object({ id: z.string(), shop: z.string(), requested_at: z.string() })),
  }),
  tax_reports: z.array(z.object({ year: z.number(), status: z.enum(['none', 'generating', 'ready', 'failed']), csv_link: z.string().nullable(), pdf_link: z.string().nullable() })),
});

const adminActionSchema = z.object({ kind: z.string(), detail: z.string().nullable(), admin_guid: z.string().nullable(), admin_name: z.string().nullable(), created_at: z.string() });
const referralRow = z.object({ name: z.string(), business_name: z.string(), email: z.string(), credit_earned: z.number() });
const guidParam = z.object({ guid: guid('This account does not exist.') });
const connectionParam = z.object({ id: guid('This shop connection does not exist.') });

/**
 * PATCH /users/{guid} takes one of three forms (docs/accounts.md §7). Each is strict: a body mixing
 * two forms, or with a field of none, is refused as a whole rather than half-applied.
 */
export const ONE_CHANGE_AT_A_TIME = 'Send one change at a time: your name, business and phone; or your referral code; or a new password.';
const onlyForm = { error: (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? ONE_CHANGE_AT_A_TIME : undefined) };
const userUpdateForms = z.union(
  [
    z.strictObject({ referral_code: z.string().max(100) }, onlyForm),
    z.strictObject(
      {
        // The service checks the minimum (with PASSWORD_RULE); a zod minimum inside this union would
        // answer "one change at a time" instead, so the document states it without zod enforcing it.
        password: z.string().max(1000).meta({ minLength: MIN_PASSWORD_LENGTH, description: PASSWORD_RULE }),
        password_confirmation: z.string().max(1000),
        current_password: z.string().max(1000),
        email: z.string().max(320).optional(),
      },
      onlyForm,
    ),
    // The lab's admin tools on a photographer (docs/api.md §6): one field per update.
    z.strictObject({
      type: z.enum(['password', 'email', 'credit', 'status']),
      value: z.union([z.string().max(1000), z.number().min(0).max(10_000_000), z.boolean()]),
      password_confirmation: z.string().max(1000).optional(),
    }),
    z.strictObject(
      {
        first_name: z.string().max(100).optional(),
        last_name: z.string().max(100).optional(),
        business_name: z.string().max(200).optional(),
        phone: z.string().max(30).optional(),
      },
      onlyForm,
    ),
  ],
  { error: ONE_CHANGE_AT_A_TIME },
);

// Four digits: a year column never holds more.
const LAST_YEAR_STORED = 9999;
// The service refuses a year after the current one by the lab's clock (which tests move); the
// schema holds the fixed bounds, and its message names the year the wall clock gives.
const yearsRule = () => reportYearsRule(new Date().getUTCFullYear());

/** The account page, the credit page and the shop connections (docs/accounts.md §2, §7). */
export const accountEndpoints = {
  profile: endpoint({ method: 'GET', path: '/profile', tags, summary: 'The signed-in photographer with cards and addresses', answers: { 200: profileSchema } }),
  updateUser: endpoint({
    method: 'PATCH',
    path: '/users/:guid',
    tags,
    summary:
      'Change BASIC INFORMATION or the password (answer the profile), or the own referral code (answers the user); admins: {type: password|email|credit|status, value} on a photographer (answers the photographer, recorded)',
    params: guidParam,
    body: userUpdateForms,
    answers: {
      ...errorAnswers(403, 429),
      200: z.union([profileSchema, z.object({ user: z.object({ guid: z.string(), referral_code: z.string(), referred_users: z.number() }) }), z.object({ data: photographerSchema })]),
    },
  }),
  addAddress: endpoint({
    method: 'POST',
    path: '/addresses',
    tags,
    summary:
      "Save a shipping address; with lab_order_id and update_address_on_order: true, also set it on that open order of the caller (one transaction). An admin sending them for a photographer's order corrects that order's address only, the client's on a drop-ship (recipient_name required; not after shipping; recorded in the order's events)",
    body: addressInput.extend({
      // Checkout's new-address form: with update_address_on_order, the address is also set on this open order.
      lab_order_id: guid('This order does not exist.').optional(),
      update_address_on_order: z.boolean().optional(),
    }),
    answers: { ...errorAnswers(404), 200: profileSchema },
  }),
  setDefaultAddress: endpoint({
    method: 'POST',
    path: '/accounts/update_default_address',
    tags,
    summary: 'Choose the primary address ("" clears it)',
    body: z.object({ make_primary: guidOrEmpty('This address does not exist.') }),
    answers: { ...errorAnswers(404), 200: profileSchema },
  }),
  removeAddress: endpoint({
    method: 'POST',
    path: '/accounts/remove_address',
    tags,
    summary: 'Remove a saved address',
    body: z.object({ selected_item: guid('This address does not exist.') }),
    answers: { ...errorAnswers(404), 200: profileSchema },
  }),
  changeEmail: endpoint({
    method: 'PATCH',
    path: '/update_user_email',
    tags,
    summary: 'Change the login email (ends every session)',
    body: z.object({ email: z.email({ error: 'Enter a valid email address.' }).max(320), password: z.string().max(1000) }),
    answers: { ...errorAnswers(429), 200: successSchema },
  }),
  connectShop: endpoint({
    method: 'POST',
    path: '/shop_connections',
    tags,
    summary:
      "Link a shop to the account whose connection code is given (no token: the shop platform's page). With SHOPIFY_API_SECRET set, shopify_query (the page's query as Shopify opened it) must carry Shopify's valid, fresh hmac and the shop is connected; otherwise the connection waits for the photographer's confirmation",
    public: true,
    body: z.object({
      code: z.string().min(1, 'Enter your connection code.').max(40),
      shop: z.string().min(1, 'Enter your shop address.').max(200),
      shopify_query: z.string().max(2000).optional(),
    }),
    answers: { ...errorAnswers(403, 404), 200: z.object({ success: z.literal(true), shop: z.string(), status: z.enum(['connected', 'pending']) }) },
  }),
  confirmShopConnection: endpoint({
    method: 'POST',
    path: '/shop_connections/:id/confirm',
    tags,
    summary: 'CONFIRM a shop connection waiting on the account page',
    params: connectionParam,
    answers: { 200: z.object({ success: z.literal(true), shop: z.string() }) },
  }),
  declineShopConnection: endpoint({
    method: 'DELETE',
    path: '/shop_connections/:id',
    tags,
    summary: 'DECLINE a shop connection waiting on the account page',
    params: connectionParam,
    answers: { 200: successSchema },
  }),
  generateTaxReport: endpoint({
    method: 'POST',
    path: '/accounts/generate_tax_report',
    tags,
    summary: "Make the year's sales report (CSV and PDF of paid orders) in the background",
    body: z.object({
      year: z
        .number()
        .int('Choose a year.')
        .min(FIRST_REPORT_YEAR, { error: yearsRule })
        // 9999 bounds the number for the database; the current year is the real end.
        .max(LAST_YEAR_STORED, { error: yearsRule })
        .describe(`A year from ${FIRST_REPORT_YEAR} to the current one (UTC, by the lab's clock); later years are refused.`),
    }),
    answers: { 200: z.object({ year: z.number(), status: z.literal('generating') }) },
  }),
  referrals: endpoint({
    method: 'GET',
    path: '/accounts/referrals',
    tags: ['referrals'],
    summary: 'The REFERRAL REPORT of the signed-in photographer',
    answers: { 200: z.object({ data: z.array(referralRow) }) },
  }),
  photographerCredit: endpoint({
    method: 'GET',
    path: '/photographers/:guid',
    tags: ['referrals'],
    summary: "A photographer's credit and referrals (their own, or any for an admin); admins also get what admins did to the account",
    params: guidParam,
    answers: {
      200: z.object({ data: z.object({ user: userSchema, referrals: z.array(referralRow), admin_actions: z.array(adminActionSchema).optional().describe('Admins only, newest first.') }) }),
    },
  }),
  blanketCertificate: endpoint({
    method: 'POST',
    path: '/accounts/blanket_certificate',
    tags: ['uploads'],
    summary: 'The certificate upload is done: check it is a PDF and keep it',
    body: z.object({ key: z.string().min(1).max(500) }),
    answers: { ...errorAnswers(404), 200: z.object({ blanket_certificate_of_resale_link: z.string() }) },
  }),
};

export type Profile = z.infer<typeof profileSchema>;
