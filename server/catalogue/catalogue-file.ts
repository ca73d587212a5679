import { z } from 'zod';
import { DETAIL_KINDS, FINISHING_CATEGORIES, allowedDetails, requiredDetails, type FinishingCategory } from '../../src/domain/catalogue.ts';
import { toCents } from '../../src/domain/money.ts';
import { isLabDate } from '../../src/domain/ship-dates.ts';
import { DEFAULT_TURNAROUND, PRODUCT_FAMILIES, TURNAROUND_MAX_DAYS, type ProductFamily } from '../../src/domain/turnaround.ts';
import { DEFAULT_SHIPPING_SPEED_CENTS } from '../../src/domain/shipping-speeds.ts';

/**
 * The catalogue file a lab loads (npm run catalogue:load -- file.json): papers, their print
 * sizes, the finishing offered for each size with its details, the order minimum, the price of
 * each shipping speed and the drop-ship fee. Prices in dollars.
 */
const price = z
  .union([z.number(), z.string()])
  .transform((value, ctx) => {
    try {
      const cents = toCents(value);
      if (cents < 0) throw new RangeError('negative');
      return cents;
    } catch {
      ctx.addIssue({ code: 'custom', message: `"${String(value)}" is not a price in dollars` });
      return z.NEVER;
    }
  });

const detail = z.object({ name: z.string().min(1), price, default: z.boolean().optional() });

const finishing = z
  .object({
    category: z.enum(FINISHING_CATEGORIES.filter((c): c is Exclude<FinishingCategory, 'none'> => c !== 'none')),
    name: z.string().min(1),
    price,
    frame_profile: z.string().optional(),
    details: z
      .partialRecord(
        z.enum(DETAIL_KINDS),
        // A choice is known by its name (and price) in the calculator: two of one name would be one.
        z.array(detail).min(1).refine((list) => new Set(list.map((d) => d.name)).size === list.length, 'choice names must be unique within a list'),
      )
      .default({}),
  })
  .superRefine((f, ctx) => {
    const needed = requiredDetails(f.category);
    for (const kind of needed) {
      if (!f.details[kind]) ctx.addIssue({ code: 'custom', message: `${f.category} "${f.name}" needs ${kind} choices`, path: ['details', kind] });
    }
    for (const kind of Object.keys(f.details)) {
      if (!allowedDetails(f.category).includes(kind as (typeof DETAIL_KINDS)[number])) {
        ctx.addIssue({ code: 'custom', message: `${f.category} "${f.name}" takes no ${kind}`, path: ['details', kind] });
      }
    }
  });

const printSize = z.object({
  name: z.string().regex(/^\d+(\.\d+)?x\d+(\.\d+)?$/, 'print size names read WxH, such as 8x10'),
  x_aspect: z.number().int().positive(),
  y_aspect: z.number().int().positive(),
  price,
  finishing: z.array(finishing).default([]),
});

const businessDays = z
  .number()
  .int('turnaround is in whole business days')
  .min(1, 'turnaround is at least 1 business day')
  .max(TURNAROUND_MAX_DAYS, `turnaround is at most ${TURNAROUND_MAX_DAYS} business days`);

// Several years of a lab's days off; a longer list is a mistake.
const HOLIDAYS_MAX = 100;

export const catalogueFileSchema = z.object({
  name: z.string().min(1),
  // The lab's order minimum in dollars (src/domain/order-minimum.ts); 0 or absent = none.
  order_minimum: price.optional().default(0),
  // Business days per product family (docs/lab-rules.md, "Turnaround"); a file without them gets the default's.
  turnaround: z.strictObject(Object.fromEntries(PRODUCT_FAMILIES.map((f) => [f, businessDays])) as Record<ProductFamily, typeof businessDays>).default(DEFAULT_TURNAROUND),
  // The lab's days off besides weekends (YYYY-MM-DD): no turnaround day counts them.
  holidays: z
    .array(z.string().refine(isLabDate, 'a holiday is a date written YYYY-MM-DD'))
    .max(HOLIDAYS_MAX, `at most ${HOLIDAYS_MAX} holidays`)
    .default([]),
  // The price of each shipping speed (src/domain/shipping-speeds.ts); a file without it keeps the
  // spec's flat $10 standard rate and the lab's usual air prices.
  shipping_speeds: z
    .object({ standard: price, two_day: price, overnight: price })
    .strict()
    .optional()
    .default(() => ({ ...DEFAULT_SHIPPING_SPEED_CENTS })),
  // Shipping an order straight to the photographer's client, once per order; 0 or absent = free.
  drop_ship_fee: price.optional().default(0),
  papers: z
    .array(
      z.object({
        name: z.string().min(1),
        allows_border: z.boolean().default(false),
        // The paper's ICC output profile for the soft proof: a file path relative to the catalogue
        // file. Absent: the paper keeps the profile it had in the active catalogue, if any.
        icc_profile: z.string().min(1).optional(),
        print_sizes: z.array(printSize).min(1),
      }),
    )
    .min(1)
    .refine((papers) => new Set(papers.map((p) => p.name)).size === papers.length, 'paper names must be unique'),
});

export type CatalogueFileInput = z.input<typeof catalogueFileSchema>;
export type CatalogueFile = z.output<typeof catalogueFileSchema>;

/** Validates a catalogue file; throws with every problem listed by where it is. */
export function parseCatalogueFile(input: unknown): CatalogueFile {
  const parsed = catalogueFileSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`);
  throw new Error(`The catalogue file is not valid:\n${lines.join('\n')}`);
}
