import { z } from 'zod';
import { DISCOUNT_AMOUNT_RULE, DISCOUNT_CODE_RULE, DISCOUNT_LAST_DAY_RULE, DISCOUNT_LIMIT_RULE, DISCOUNT_PERCENT_RULE } from '../domain/discount-codes.ts';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';

const tags = ['discount codes'];
// Longer than any code (40) or form field, with room for spaces typed around it.
const TYPED_MAX = 60;
const typed = (message: string) => z.string({ error: message }).max(TYPED_MAX, { error: message });
// A number or the text a form field holds; the service reads it with the command line's rules.
// The bounds keep a number inside the 32-bit columns; the service holds the finer rules.
const figure = (message: string, max: number) => z.union([typed(message), z.number({ error: message }).min(0, { error: message }).max(max, { error: message })], { error: message }).optional();
// The most a field can be: 100 percent, the command line's 7 dollar digits, its 9 limit digits.
const PERCENT_MAX = 100;
const AMOUNT_MAX = 9_999_999.99;
const LIMIT_MAX = 999_999_999;

export const adminDiscountCodeSchema = z.object({
  code: z.string(),
  kind: z.enum(['percent', 'amount']),
  percent: z.number().optional(),
  amount: z.number().optional().describe('Dollars off.'),
  state: z.enum(['active', 'paused', 'expired', 'used_up']),
  paused: z.boolean(),
  last_day: z.string().nullable().describe('The last day the code works (UTC), or null: no expiry.'),
  expires_at: z.string().nullable(),
  usage_limit: z.number().nullable(),
  created_at: z.string(),
  uses: z.object({
    times: z.number().describe('Uses taken by checkouts (what the usage limit counts).'),
    photographers: z.number().describe('Photographers with a paid order that kept the code.'),
    money_given: z.number().describe('Dollars of discount on those orders.'),
  }),
});
const oneCode = z.object({ data: adminDiscountCodeSchema });

/** Discount codes for lab admins (issue 34): the admin screen's calls; npm run discount:create stays. */
export const discountCodeEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/discount_codes',
    tags,
    summary: 'Admins: every discount code, by code, with its state and uses',
    answers: { ...errorAnswers(403), 200: z.object({ data: z.array(adminDiscountCodeSchema) }) },
  }),
  create: endpoint({
    method: 'POST',
    path: '/discount_codes',
    tags,
    summary: 'Admins: a new code worth a percent or an amount, with an optional last day and usage limit (the rules of npm run discount:create); 422 names the field',
    body: z.object({
      code: typed(DISCOUNT_CODE_RULE),
      percent: figure(DISCOUNT_PERCENT_RULE, PERCENT_MAX),
      amount: figure(DISCOUNT_AMOUNT_RULE, AMOUNT_MAX),
      last_day: typed(DISCOUNT_LAST_DAY_RULE).optional(),
      usage_limit: figure(DISCOUNT_LIMIT_RULE, LIMIT_MAX),
    }),
    answers: { ...errorAnswers(403), 201: oneCode },
  }),
  change: endpoint({
    method: 'PATCH',
    path: '/discount_codes/:code',
    tags,
    summary: "Admins: PAUSE or RESUME a code (paused), or EXPIRE it (expires: 'now', or the last day it works); a paused or expired code is refused at checkout",
    params: z.object({ code: typed(DISCOUNT_CODE_RULE) }),
    body: z.object({
      paused: z.boolean({ error: 'paused is true or false.' }).optional(),
      expires: typed(`expires is 'now' or a date such as 2027-01-31.`).optional(),
    }),
    answers: { ...errorAnswers(403, 404), 200: oneCode },
  }),
};

export type AdminDiscountCode = z.infer<typeof adminDiscountCodeSchema>;
