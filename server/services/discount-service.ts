import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { toDollars } from '../../src/domain/money.ts';
import type { DiscountRule } from '../../src/domain/pricing.ts';
import { DISCOUNT_CODE_RULE, DISCOUNT_LIMIT_RULE, DISCOUNT_PERCENT_RULE, DISCOUNT_AMOUNT_MIN, DISCOUNT_WORTH_RULE, lastDayOf, normaliseCode, parseCode } from '../../src/domain/discount-codes.ts';
import type { Db, Tx } from '../db/client.ts';
import { discountCodes } from '../db/schema.ts';
import { refusingDuplicates } from '../db/unique-violation.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, unauthorized, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';

/** Discount codes (docs/lab-rules.md §3): made on the admin screen or the command line, checked at checkout. */

export const INVALID_DISCOUNT_CODE = 'This is not a valid discount code.';
export { DISCOUNT_CODE_RULE };

export type DiscountCodeRow = typeof discountCodes.$inferSelect;

export const normaliseDiscountCode = normaliseCode;

export function discountRule(row: Pick<DiscountCodeRow, 'kind' | 'percent' | 'amountCents'>): DiscountRule {
  return row.kind === 'percent' ? { kind: 'percent', percent: row.percent ?? 0 } : { kind: 'amount', amountCents: row.amountCents ?? 0 };
}

/** Not paused, not expired and not used up, at `now`. */
const usable = (now: Date) => and(eq(discountCodes.paused, false), or(isNull(discountCodes.expiresAt), gt(discountCodes.expiresAt, now)), or(isNull(discountCodes.usageLimit), lt(discountCodes.uses, discountCodes.usageLimit)));

/** The code if it exists, has not expired and has uses left; null otherwise. */
export async function usableDiscountCode(db: Db | Tx, typed: string, now: Date): Promise<DiscountCodeRow | null> {
  const parsed = parseCode(typed);
  if (!('value' in parsed)) return null;
  const code = parsed.value;
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(and(eq(discountCodes.code, code), usable(now)));
  return row ?? null;
}

/**
 * Takes one use of the code for a checkout, if it is still usable: the row's own update decides,
 * so two checkouts racing for the last use cannot both have it. Given back by releaseDiscountUse.
 */
export async function reserveDiscountUse(tx: Tx, id: string, now: Date): Promise<boolean> {
  const taken = await tx
    .update(discountCodes)
    .set({ uses: sql`${discountCodes.uses} + 1` })
    .where(and(eq(discountCodes.id, id), usable(now)))
    .returning({ id: discountCodes.id });
  return taken.length > 0;
}

export async function releaseDiscountUse(tx: Tx, id: string): Promise<void> {
  await tx
    .update(discountCodes)
    .set({ uses: sql`greatest(${discountCodes.uses} - 1, 0)` })
    .where(eq(discountCodes.id, id));
}

/**
 * Why a code cannot be used at `now`, in the photographer's words: a paused or expired code says
 * so (the lab stopped it; typing it again will not help), anything else is not a valid code.
 */
export async function discountCodeRefusal(db: Db | Tx, where: { typed: string } | { id: string }, now: Date): Promise<string> {
  const code = 'typed' in where ? normaliseDiscountCode(where.typed) : null;
  if (code !== null && !('value' in parseCode(code))) return INVALID_DISCOUNT_CODE;
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(code !== null ? eq(discountCodes.code, code) : eq(discountCodes.id, 'id' in where ? where.id : ''));
  if (!row) return INVALID_DISCOUNT_CODE;
  if (row.paused) return `The discount code ${row.code} is paused by the lab.`;
  if (row.expiresAt && row.expiresAt <= now) return `The discount code ${row.code} expired on ${lastDayOf(row.expiresAt)}.`;
  return INVALID_DISCOUNT_CODE;
}

/** The wire's description of a code. */
export function discountCodeJson(row: DiscountCodeRow) {
  return row.kind === 'percent'
    ? { code: row.code, kind: 'percent' as const, percent: row.percent ?? 0 }
    : { code: row.code, kind: 'amount' as const, amount: toDollars(row.amountCents ?? 0) };
}

/** POST validate_discount_code: the code and what it is worth, or 404. */
export async function validateDiscountCode(deps: Pick<ServerDeps, 'db' | 'now'>, actor: Actor | null, typed: string) {
  if (!actor) throw unauthorized();
  const now = deps.now?.() ?? new Date();
  const row = await usableDiscountCode(deps.db, typed, now);
  if (!row) throw notFound(await discountCodeRefusal(deps.db, { typed }, now));
  return { success: true as const, discount_code: discountCodeJson(row) };
}

export interface NewDiscountCode {
  code: string;
  percent?: number | undefined;
  amountCents?: number | undefined;
  expiresAt?: Date | undefined;
  usageLimit?: number | undefined;
}

/** The field of a new code a problem is about, as the API and the admin screen name it. */
export type NewCodeField = 'code' | 'percent' | 'amount' | 'usage_limit';

/** A problem with a new code, in words for the admin, with its field; null when it can be made. */
export function newDiscountCodeFieldProblem(input: NewDiscountCode, existing: boolean): { field: NewCodeField; message: string } | null {
  const code = normaliseDiscountCode(input.code);
  if (!('value' in parseCode(code))) return { field: 'code', message: DISCOUNT_CODE_RULE };
  if ((input.percent === undefined) === (input.amountCents === undefined)) return { field: input.percent === undefined ? 'percent' : 'amount', message: DISCOUNT_WORTH_RULE };
  if (input.percent !== undefined && (!Number.isInteger(input.percent) || input.percent < 1 || input.percent > 100)) return { field: 'percent', message: DISCOUNT_PERCENT_RULE };
  if (input.amountCents !== undefined && (!Number.isInteger(input.amountCents) || input.amountCents < 1)) return { field: 'amount', message: DISCOUNT_AMOUNT_MIN };
  if (input.usageLimit !== undefined && (!Number.isInteger(input.usageLimit) || input.usageLimit < 1)) return { field: 'usage_limit', message: DISCOUNT_LIMIT_RULE };
  if (existing) return { field: 'code', message: duplicateMessage(code) };
  return null;
}

const duplicateMessage = (code: string) => `The code ${code} already exists.`;

/** As newDiscountCodeFieldProblem, the message only (the command line). */
export const newDiscountCodeProblem = (input: NewDiscountCode, existing: boolean): string | null => newDiscountCodeFieldProblem(input, existing)?.message ?? null;

/** Makes a code, or refuses with a 422 naming the field (the message is what the command line prints). */
export async function createDiscountCode(db: Db, input: NewDiscountCode): Promise<DiscountCodeRow> {
  const code = normaliseDiscountCode(input.code);
  const [existing] = await db.select({ id: discountCodes.id }).from(discountCodes).where(eq(discountCodes.code, code));
  const problem = newDiscountCodeFieldProblem(input, Boolean(existing));
  if (problem) throw validationError(problem.message, [`${problem.field}: ${problem.message}`]);
  // A code made by another admin since the check above: the unique index decides.
  const [row] = await refusingDuplicates(
    () =>
      db
        .insert(discountCodes)
        .values({
          code,
          kind: input.percent !== undefined ? 'percent' : 'amount',
          percent: input.percent ?? null,
          amountCents: input.amountCents ?? null,
          expiresAt: input.expiresAt ?? null,
          usageLimit: input.usageLimit ?? null,
        })
        .returning(),
    { discount_codes_code_key: () => validationError(duplicateMessage(code), [`code: ${duplicateMessage(code)}`]) },
  );
  if (!row) throw new Error('discount code not saved');
  return row;
}

export const listDiscountCodes = (db: Db) => db.select().from(discountCodes).orderBy(asc(discountCodes.code));
