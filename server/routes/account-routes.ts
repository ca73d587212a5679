import { adminActionsOf, adminUpdatePhotographer } from '../services/photographers-service.ts';
import { photographerSchema } from './photographers-routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { addAddress, changeEmail, changePassword, removeAddress, setDefaultAddress, updateBasicInformation } from '../services/account-service.ts';
import { profileJson } from '../services/profile-cache.ts';
import { myReferrals, photographerCredit, updateOwnReferralCode } from '../services/referral-service.ts';
import { confirmShopConnection, connectShop, declineShopConnection } from '../services/shop-connection-service.ts';
import { FIRST_REPORT_YEAR, reportYearsRule, requestTaxReport } from '../services/tax-report-service.ts';
import { guid, guidOrEmpty, successSchema } from '../../src/contract/shapes.ts';
import { errorAnswers } from '../http/errors.ts';
import { MIN_PASSWORD_LENGTH } from '../services/passwords.ts';
import { PASSWORD_RULE } from '../services/signup-service.ts';

const userShape = z.object({
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
/** The profile answer (docs/accounts.md §7), also the answer of the card calls. */
export const profileShape = z.object({
  user: userShape,
  cards: z.object({ data: z.array(z.object({ id: z.string(), masked_card: z.string() })) }),
  addresses: z.object({
    data: z.array(
      z.object({
        guid: z.string(),
        recipient: z.string().nullable(),
        street: z.string(),
        street_2: z.string().nullable(),
        city: z.string(),
        state_province: z.string(),
        state: z.string(),
        zip: z.string(),
      }),
    ),
  }),
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
export const ONE_CHANGE_AT_A_TIME =
  'Send one change at a time: your name, business and phone; or your referral code; or a new password.';
const onlyForm = { error: (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? ONE_CHANGE_AT_A_TIME : undefined) };
const userUpdateForms = z.union(
  [
    z.strictObject({ referral_code: z.string().max(100) }, onlyForm),
    z.strictObject({
      // The service checks the minimum (with PASSWORD_RULE); a zod minimum inside this union would
      // answer "one change at a time" instead, so the document states it without zod enforcing it.
      password: z.string().max(1000).meta({ minLength: MIN_PASSWORD_LENGTH, description: PASSWORD_RULE }),
      password_confirmation: z.string().max(1000),
      current_password: z.string().max(1000),
      email: z.string().max(320).optional(),
    }, onlyForm),
    // The lab's admin tools on a photographer (docs/api.md §6): one field per update.
    z.strictObject({
      type: z.enum(['password', 'email', 'credit', 'status']),
      value: z.union([z.string().max(1000), z.number().min(0).max(10_000_000), z.boolean()]),
      password_confirmation: z.string().max(1000).optional(),
    }),
    z.strictObject({
      first_name: z.string().max(100).optional(),
      last_name: z.string().max(100).optional(),
      business_name: z.string().max(200).optional(),
      phone: z.string().max(30).optional(),
    }, onlyForm),
  ],
  { error: ONE_CHANGE_AT_A_TIME },
);
// Four digits: a year column never holds more.
const LAST_YEAR_STORED = 9999;
const nonBlank = (message: string) => z.string().trim().min(1, message).max(200);

/** The account page and the credit page (docs/accounts.md §2, §7). */
export const accountRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Sent as the JSON the service wrote (kept per account version, profile-cache.ts): the API
    // tests parse every answer with profileShape.
    app.get(API.profile, { schema: { tags: ['account'], summary: 'The signed-in photographer with cards and addresses', response: { 200: profileShape } } }, async (request, reply) =>
      reply.type('application/json; charset=utf-8').send((await profileJson(deps, request.actor)) as unknown as z.infer<typeof profileShape>),
    );

    app.patch(
      API.user,
      {
        schema: {
          tags: ['account'],
          summary:
            "Change BASIC INFORMATION or the password (answer the profile), or the own referral code (answers the user); admins: {type: password|email|credit|status, value} on a photographer (answers the photographer, recorded)",
          params: guidParam,
          body: userUpdateForms,
          response: {
            ...errorAnswers(403, 429),
            200: z.union([profileShape, z.object({ user: z.object({ guid: z.string(), referral_code: z.string(), referred_users: z.number() }) }), z.object({ data: photographerSchema })]),
          },
        },
      },
      (request) => {
        const body = request.body;
        if ('type' in body) return adminUpdatePhotographer(deps, request.actor, request.params.guid, body);
        if ('referral_code' in body) return updateOwnReferralCode(deps, request.actor, request.params.guid, body.referral_code);
        if ('password' in body) return changePassword(deps, request.actor, request.params.guid, body);
        return updateBasicInformation(deps, request.actor, request.params.guid, body);
      },
    );

    app.post(
      API.addresses,
      {
        schema: {
          tags: ['account'],
          summary:
            "Save a shipping address; with lab_order_id and update_address_on_order: true, also set it on that open order of the caller (one transaction). An admin sending them for a photographer's order corrects that order's address only (recipient_name required; not after shipping; recorded in the order's events)",
          body: z.object({
            street_address: nonBlank('Enter the street address.'),
            street_address_two: z.string().max(200).optional(),
            recipient_name: z.string().max(200).optional(),
            city: nonBlank('Enter the city.'),
            state: nonBlank('Enter the state.'),
            zip: z.string().max(20, 'The zip code is 5 digits.').trim().regex(/^\d{5}$/, 'The zip code is 5 digits.'),
            // Checkout's new-address form: with update_address_on_order, the address is also set on this open order.
            lab_order_id: guid('This order does not exist.').optional(),
            update_address_on_order: z.boolean().optional(),
          }),
          response: { ...errorAnswers(404), 200: profileShape },
        },
      },
      (request) => addAddress(deps, request.actor, request.body, request.changeGuid('address')),
    );

    app.post(
      API.updateDefaultAddress,
      { schema: { tags: ['account'], summary: 'Choose the primary address ("" clears it)', body: z.object({ make_primary: guidOrEmpty('This address does not exist.') }), response: { ...errorAnswers(404), 200: profileShape } } },
      (request) => setDefaultAddress(deps, request.actor, request.body.make_primary),
    );

    app.post(
      API.removeAddress,
      { schema: { tags: ['account'], summary: 'Remove a saved address', body: z.object({ selected_item: guid('This address does not exist.') }), response: { ...errorAnswers(404), 200: profileShape } } },
      (request) => removeAddress(deps, request.actor, request.body.selected_item),
    );

    app.patch(
      API.updateUserEmail,
      {
        schema: {
          tags: ['account'],
          summary: 'Change the login email (ends every session)',
          body: z.object({ email: z.email({ error: 'Enter a valid email address.' }).max(320), password: z.string().max(1000) }),
          response: { ...errorAnswers(429), 200: successSchema },
        },
      },
      (request) => changeEmail(deps, request.actor, request.body),
    );

    app.post(
      API.shopConnections,
      {
        schema: {
          tags: ['account'],
          summary:
            "Link a shop to the account whose connection code is given (no token: the shop platform's page). With SHOPIFY_API_SECRET set, shopify_query (the page's query as Shopify opened it) must carry Shopify's valid, fresh hmac and the shop is connected; otherwise the connection waits for the photographer's confirmation",
          body: z.object({
            code: z.string().min(1, 'Enter your connection code.').max(40),
            shop: z.string().min(1, 'Enter your shop address.').max(200),
            shopify_query: z.string().max(2000).optional(),
          }),
          response: { ...errorAnswers(403, 404), 200: z.object({ success: z.literal(true), shop: z.string(), status: z.enum(['connected', 'pending']) }) },
        },
        config: { public: true, rateLimit: { max: deps.config.lookupRateLimit, timeWindow: 60_000 } },
      },
      (request) => connectShop(deps, request.body),
    );

    app.post(
      API.confirmShopConnection,
      {
        schema: { tags: ['account'], summary: 'CONFIRM a shop connection waiting on the account page', params: connectionParam, response: { 200: z.object({ success: z.literal(true), shop: z.string() }) } },
      },
      (request) => confirmShopConnection(deps, request.actor, request.params.id),
    );

    app.delete(
      API.shopConnection,
      { schema: { tags: ['account'], summary: 'DECLINE a shop connection waiting on the account page', params: connectionParam, response: { 200: successSchema } } },
      (request) => declineShopConnection(deps, request.actor, request.params.id),
    );

    // The last year offered moves with the clock: read at each request, not when the app starts.
    const thisYear = () => (deps.now?.() ?? new Date()).getUTCFullYear();
    const yearsRule = () => reportYearsRule(thisYear());
    app.post(
      API.generateTaxReport,
      {
        schema: {
          tags: ['account'],
          summary: "Make the year's sales report (CSV and PDF of paid orders) in the background",
          body: z.object({
            year: z
              .number()
              .int('Choose a year.')
              .min(FIRST_REPORT_YEAR, { error: () => yearsRule() })
              // 9999 bounds the number for the database; the current year is the real end.
              .max(LAST_YEAR_STORED, { error: () => yearsRule() })
              .refine((year) => year <= thisYear(), { error: () => yearsRule() })
              .describe(`A year from ${FIRST_REPORT_YEAR} to the current one (UTC, by the lab's clock); later years are refused.`),
          }),
          response: { 200: z.object({ year: z.number(), status: z.literal('generating') }) },
        },
      },
      (request) => requestTaxReport(deps, request.actor, request.body.year),
    );

    app.get(API.referrals, { schema: { tags: ['referrals'], summary: 'The REFERRAL REPORT of the signed-in photographer', response: { 200: z.object({ data: z.array(referralRow) }) } } }, (request) =>
      myReferrals(deps, request.actor),
    );

    app.get(
      API.photographer,
      {
        schema: {
          tags: ['referrals'],
          summary: "A photographer's credit and referrals (their own, or any for an admin); admins also get what admins did to the account",
          params: guidParam,
          response: { 200: z.object({ data: z.object({ user: userShape, referrals: z.array(referralRow), admin_actions: z.array(adminActionSchema).optional().describe('Admins only, newest first.') }) }) },
        },
      },
      async (request) => {
        const page = await photographerCredit(deps, request.actor, request.params.guid);
        if (!request.actor?.user.isAdmin) return page;
        return { data: { ...page.data, admin_actions: await adminActionsOf(deps, request.params.guid) } };
      },
    );
  };
