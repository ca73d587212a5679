import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { toDollars } from '../../src/domain/money.ts';
import type { DiscountRule } from '../../src/domain/pricing.ts';
import type { Db, Tx } from '../db/client.ts';
import { discountCodes } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, unauthorized } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';

/** Discount codes (CHECKOUT-CONTRACT.md Decisions): made from the command line, checked at checkout. */

export const INVALID_DISCOUNT_CODE = 'This is not a valid discount code.';
export const DISCOUNT_CODE_RULE = 'A discount code is 4 to 40 letters, digits or dashes.';
const CODE_SHAPE = /^[A-Z0-9-]{4,40}$/;

export type DiscountCodeRow = typeof discountCodes.$inferSelect;

/** As typed: trimmed and upper-cased (codes are stored upper-case). */
export const normaliseDiscountCode = (code: string) => code.trim().toUpperCase();

export function discountRule(row: Pick<DiscountCodeRow, 'kind' | 'percent' | 'amountCents'>): DiscountRule {
  return row.kind === 'percent' ? { kind: 'percent', percent: row.percent ?? 0 } : { kind: 'amount', amountCents: row.amountCents ?? 0 };
}

/** Not expired and not used up, at `now`. */
const usable = (now: Date) => and(or(isNull(discountCodes.expiresAt), gt(discountCodes.expiresAt, now)), or(isNull(discountCodes.usageLimit), lt(discountCodes.uses, discountCodes.usageLimit)));

/** The code if it exists, has not expired and has uses left; null otherwise. */
export async function usableDiscountCode(db: Db | Tx, typed: string, now: Date): Promise<DiscountCodeRow | null> {
  const code = normaliseDiscountCode(typed);
  if (!CODE_SHAPE.test(code)) return null;
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

/** The wire's description of a code. */
export function discountCodeJson(row: DiscountCodeRow) {
  return row.kind === 'percent'
    ? { code: row.code, kind: 'percent' as const, percent: row.percent ?? 0 }
    : { code: row.code, kind: 'amount' as const, amount: toDollars(row.amountCents ?? 0) };
}

/** POST validate_discount_code: the code and what it is worth, or 404. */
export async function validateDiscountCode(deps: Pick<ServerDeps, 'db' | 'now'>, actor: Actor | null, typed: string) {
  if (!actor) throw unauthorized();
  const row = await usableDiscountCode(deps.db, typed, deps.now?.() ?? new Date());
  if (!row) throw notFound(INVALID_DISCOUNT_CODE);
  return { success: true as const, discount_code: discountCodeJson(row) };
}

export interface NewDiscountCode {
  code: string;
  percent?: number | undefined;
  amountCents?: number | undefined;
  expiresAt?: Date | undefined;
  usageLimit?: number | undefined;
}

/** A problem with a new code, in words for the admin; null when it can be made. */
export function newDiscountCodeProblem(input: NewDiscountCode, existing: boolean): string | null {
  const code = normaliseDiscountCode(input.code);
  if (!CODE_SHAPE.test(code)) return DISCOUNT_CODE_RULE;
  if ((input.percent === undefined) === (input.amountCents === undefined)) return 'Give either a percent (--percent 10) or an amount in dollars (--amount 5.00).';
  if (input.percent !== undefined && (!Number.isInteger(input.percent) || input.percent < 1 || input.percent > 100)) return 'The percent is a whole number from 1 to 100.';
  if (input.amountCents !== undefined && (!Number.isInteger(input.amountCents) || input.amountCents < 1)) return 'The amount is at least 0.01 dollars.';
  if (input.usageLimit !== undefined && (!Number.isInteger(input.usageLimit) || input.usageLimit < 1)) return 'The usage limit is a whole number of 1 or more.';
  if (existing) return `The code ${code} already exists.`;
  return null;
}

export async function createDiscountCode(db: Db, input: NewDiscountCode): Promise<DiscountCodeRow> {
  const code = normaliseDiscountCode(input.code);
  const [existing] = await db.select({ id: discountCodes.id }).from(discountCodes).where(eq(discountCodes.code, code));
  const problem = newDiscountCodeProblem(input, Boolean(existing));
  if (problem) throw new Error(problem);
  const [row] = await db
    .insert(discountCodes)
    .values({
      code,
      kind: input.percent !== undefined ? 'percent' : 'amount',
      percent: input.percent ?? null,
      amountCents: input.amountCents ?? null,
      expiresAt: input.expiresAt ?? null,
      usageLimit: input.usageLimit ?? null,
    })
    .returning();
  if (!row) throw new Error('discount code not saved');
  return row;
}

export const listDiscountCodes = (db: Db) => db.select().from(discountCodes).orderBy(asc(discountCodes.code));
