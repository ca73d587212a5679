import { z } from 'zod';
import { CALCULATOR_GROUPS, DETAIL_KINDS, FINISHING_CATEGORIES, type CalculatorGroup } from '../domain/catalogue.ts';
import { PRODUCT_FAMILIES, type ProductFamily } from '../domain/turnaround.ts';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { PAPER_PROFILE_MAX_BYTES, PROOF_COLOUR_SPACES } from '../domain/paper-profile.ts';
import { guid, successSchema } from './shapes.ts';

const tags = ['catalogue'];
const money = z.number();
const printSizePricing = z.object({ guid: z.string(), name: z.string(), price: money, x_aspect: z.number(), y_aspect: z.number() });
export const iccProfileSchema = z
  .object({
    url: z.string().describe('Where the profile file is served: immutable, cached for a year (the key changes with the bytes)'),
    key: z.string().describe("The profile's key, made of its SHA-256: the proof's cache key"),
    name: z.string().describe('The file name the lab gave it'),
    colour_space: z.enum(PROOF_COLOUR_SPACES),
  })
  .describe("The paper's ICC output profile for the soft proof; null when the lab attached none (no proof offered)");
const paper = z.object({
  guid: z.string(),
  name: z.string(),
  allows_border: z.boolean(),
  icc_profile: iccProfileSchema.nullable(),
  print_size_pricings: z.array(printSizePricing),
});
const detail = z.object({ guid: z.string(), name: z.string(), price: money, is_default: z.boolean() });
const service = z.object({
  guid: z.string(),
  name: z.string(),
  price: money,
  finishing_category: z.enum(FINISHING_CATEGORIES),
  frame_profile: z.string().nullable(),
  formatted_frame_profile: z.string().nullable(),
  detail_pricings: z.partialRecord(z.enum(DETAIL_KINDS), z.array(detail)),
});
const group = z.object({ finishing_category: z.enum(FINISHING_CATEGORIES), services: z.array(service) });
// The calculator's compact shape (src/client-rules/calculator-catalogue.ts): print sizes refer to each
// distinct finishing and detail choice by key.
const calculatorGroups = z.partialRecord(
  z.enum(Object.keys(CALCULATOR_GROUPS) as [CalculatorGroup, ...CalculatorGroup[]]),
  z.array(z.object({ guid: z.string(), finishing: z.string().describe('a key of `finishing`') })),
);

export const papersSchema = z.object({ data: z.array(paper) });
export const finishingSchema = z.object({ data: z.array(group) });
export const calculatorCatalogueSchema = z.object({
  data: z.array(paper.extend({ print_size_pricings: z.array(printSizePricing.extend({ calculator_groups: calculatorGroups })) })),
  finishing: z.record(
    z.string(),
    service.omit({ guid: true, detail_pricings: true }).extend({
      detail_options: z.partialRecord(z.enum(DETAIL_KINDS), z.array(z.string().describe('a key of `options`'))),
    }),
  ),
  options: z.record(z.string(), detail.omit({ guid: true })),
  settings: z.object({
    order_minimum: money.describe("the lab's order minimum in dollars: an order's prints and finishing must reach it to be checked out; 0 = none"),
    turnaround: z
      .object(Object.fromEntries(PRODUCT_FAMILIES.map((f) => [f, z.number()])) as Record<ProductFamily, z.ZodNumber>)
      .describe("business days the lab needs to make each product family; an order's is its slowest family's"),
    holidays: z.array(z.string()).describe("the lab's days off besides weekends (YYYY-MM-DD), which no turnaround counts"),
    shipping_speeds: z
      .object({ standard: money, two_day: money, overnight: money })
      .describe('the price in dollars of each shipping speed an order may choose (PATCH /lab_orders/{id} shipping_method); local pickup is free'),
    drop_ship_fee: money.describe("dollars added once to an order shipped straight to the photographer's client (PUT /lab_orders/{id}/drop_ship)"),
  }),
});
export const priceListSchema = z.object({
  data: z.array(
    z.object({
      guid: z.string(),
      name: z.string(),
      print_sizes: z.array(z.object({ guid: z.string(), name: z.string(), price: money, finishing_from: z.partialRecord(z.enum(FINISHING_CATEGORIES), money) })),
    }),
  ),
});

/** The catalogue's wire shapes (money in dollars), as the server builds them and the page reads them. */
export type PrintSizePricing = z.output<typeof printSizePricing>;
export type Paper = z.output<typeof paper>;
/** A paper's ICC output profile as the catalogue sends it (issue 35); null on a paper without one. */
export type PaperIccProfile = z.output<typeof iccProfileSchema>;
export type DetailPricing = z.output<typeof detail>;
export type FinishingService = z.output<typeof service>;
export type FinishingGroup = z.output<typeof group>;
/** GET /calculator_catalogue: each distinct finishing and detail choice once, under a key. */
export type CalculatorCatalogueAnswer = z.output<typeof calculatorCatalogueSchema>;
export type CalculatorWirePaper = CalculatorCatalogueAnswer['data'][number];
export type CalculatorWirePrintSize = CalculatorWirePaper['print_size_pricings'][number];
export type CalculatorServiceRef = NonNullable<CalculatorWirePrintSize['calculator_groups'][CalculatorGroup]>[number];
export type CalculatorFinishing = CalculatorCatalogueAnswer['finishing'][string];
// Base64 of the largest profile taken: 4 characters per 3 bytes.
export const PAPER_PROFILE_MAX_BASE64 = Math.ceil(PAPER_PROFILE_MAX_BYTES / 3) * 4;

const cached = z.null().describe('Unchanged since the ETag sent in If-None-Match: no body.');

/**
 * The catalogue: public reads of the lab's price list, each sent with a strong ETag and
 * revalidated with a 304, and the price of one print.
 */
export const catalogueEndpoints = {
  papersWithDetails: endpoint({
    method: 'GET',
    path: '/papers_with_details',
    tags,
    summary: 'Papers with their print sizes and prices',
    public: true,
    answers: { 200: papersSchema, 304: cached },
  }),
  finishingServices: endpoint({
    method: 'GET',
    path: '/products/:print_size_guid/finishing_services',
    tags,
    summary: 'The finishing offered for one print size, grouped by category, with detail choices and prices',
    public: true,
    params: z.object({ print_size_guid: guid('This print size is not offered.') }),
    answers: { 200: finishingSchema, 304: cached },
  }),
  calculatorCatalogue: endpoint({
    method: 'GET',
    path: '/calculator_catalogue',
    tags,
    summary: "The calculator's catalogue: every print size with its finishing in the calculator's groups, each distinct finishing and detail choice once",
    public: true,
    answers: { 200: calculatorCatalogueSchema, 304: cached },
  }),
  attachPaperProfile: endpoint({
    method: 'PUT',
    path: '/papers/:paper_guid/icc_profile',
    tags,
    summary: "Attach an ICC output profile to a paper of the active catalogue (lab admins): checked, stored by its content, served with the catalogue",
    params: z.object({ paper_guid: guid('This paper is not in the catalogue.') }),
    body: z.object({
      file_name: z.string().trim().min(1, { error: 'Name the profile file.' }).max(200, { error: 'The file name is too long.' }),
      profile: z
        .base64({ error: 'Send the profile file in base64.' })
        .min(1, { error: 'The profile file is empty.' })
        .max(PAPER_PROFILE_MAX_BASE64, { error: `This profile is larger than ${PAPER_PROFILE_MAX_BYTES / (1024 * 1024)} MB.` }),
    }),
    answers: { ...errorAnswers(403, 404, 422), 200: z.object({ data: iccProfileSchema }) },
  }),
  removePaperProfile: endpoint({
    method: 'DELETE',
    path: '/papers/:paper_guid/icc_profile',
    tags,
    summary:
      "Remove a paper's ICC output profile (lab admins): the catalogue then offers no proof on that paper; the stored file goes unless another paper uses it (a paper without one is left as it is)",
    params: z.object({ paper_guid: guid('This paper is not in the catalogue.') }),
    answers: { ...errorAnswers(403, 404), 200: successSchema },
  }),
  priceLists: endpoint({ method: 'GET', path: '/price-lists', tags, summary: "The lab's price list by paper", public: true, answers: { 200: priceListSchema, 304: cached } }),
  priceQuote: endpoint({
    method: 'POST',
    path: '/price_quote',
    tags,
    summary: 'The price of a print with its finishing, as the server computes it',
    public: true,
    body: z.object({
      print_size: guid('Choose a print size.'),
      finishing_service: guid('Choose a finishing service.').nullish(),
      finishing_service_details: z.array(guid('Choose a finishing detail.')).max(DETAIL_KINDS.length).optional(),
      finishing_options: z.array(z.string().max(32)).max(DETAIL_KINDS.length).optional(),
      quantity: z.number().int({ error: 'Quantity must be a whole number.' }).min(1, { error: 'Quantity must be at least 1.' }).max(10_000),
    }),
    answers: {
      ...errorAnswers(404),
      200: z.object({
        paper: z.string(),
        print_size: z.string(),
        finishing: z.string().nullable(),
        print_price: money,
        finishing_price: money,
        quantity: z.number(),
        subtotal: money,
      }),
    },
  }),
};
