import { and, asc, countDistinct, eq, isNotNull, ne, sum } from 'drizzle-orm';
import { parseAmount, parseLastDay, parsePercent, parseUsageLimit, lastDayOf, type Parsed } from '../../src/domain/discount-codes.ts';
import { toDollars } from '../../src/domain/money.ts';
import { discountCodes, labOrders } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, validationError } from '../http/errors.ts';
import { requireAdmin } from './admin-guard.ts';
import type { Actor } from './auth-service.ts';
import { createDiscountCode, discountCodeJson, normaliseDiscountCode, type DiscountCodeRow, type NewDiscountCode } from './discount-service.ts';

/** The admin screen's discount codes (issue 34): list with their uses, create, pause, resume, expire. */

type Deps = Pick<ServerDeps, 'db' | 'now'>;
export type CodeState = 'active' | 'paused' | 'expired' | 'used_up';
const NO_SUCH_CODE = 'There is no discount code with this name.';

interface Uses {
  photographers: number;
  givenCents: number;
}

/** What an admin sees of a code: what it is worth, its limits, its state now, and its uses. */
function adminCodeJson(row: DiscountCodeRow, uses: Uses, now: Date) {
  const state: CodeState = row.paused ? 'paused' : row.expiresAt && row.expiresAt <= now ? 'expired' : row.usageLimit !== null && row.uses >= row.usageLimit ? 'used_up' : 'active';
  return {
    ...discountCodeJson(row),
    state,
    paused: row.paused,
    last_day: row.expiresAt ? lastDayOf(row.expiresAt) : null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    usage_limit: row.usageLimit,
    created_at: row.createdAt.toISOString(),
    // Times used counts the uses a checkout holds (what the usage limit is measured against);
    // photographers and money given count the paid orders that kept the code (not cancelled).
    uses: { times: row.uses, photographers: uses.photographers, money_given: toDollars(uses.givenCents) },
  };
}

/** The paid, not cancelled orders of each code: how many photographers, how much discount. */
async function usesOf(deps: Deps, codeId?: string): Promise<Map<string, Uses>> {
  const rows = await deps.db
    .select({ id: labOrders.discountCodeId, photographers: countDistinct(labOrders.userGuid), given: sum(labOrders.discountCents) })
    .from(labOrders)
    .where(and(codeId ? eq(labOrders.discountCodeId, codeId) : isNotNull(labOrders.discountCodeId), isNotNull(labOrders.paidAt), ne(labOrders.status, 'cancelled')))
    .groupBy(labOrders.discountCodeId);
  return new Map(rows.map((r) => [r.id ?? '', { photographers: r.photographers, givenCents: Number(r.given ?? 0) }]));
}

const NONE: Uses = { photographers: 0, givenCents: 0 };
const nowOf = (deps: Deps) => deps.now?.() ?? new Date();

export async function listCodesWithUses(deps: Deps, actor: Actor | null) {
  requireAdmin(actor);
  const [rows, uses] = await Promise.all([deps.db.select().from(discountCodes).orderBy(asc(discountCodes.code)), usesOf(deps)]);
  const now = nowOf(deps);
  return { data: rows.map((row) => adminCodeJson(row, uses.get(row.id) ?? NONE, now)) };
}

export interface NewCodeBody {
  code: string;
  percent?: string | number | undefined;
  amount?: string | number | undefined;
  last_day?: string | undefined;
  usage_limit?: string | number | undefined;
}

/** A new code from the admin screen: the command line's rules (discount-service.ts), each refusal naming its field. */
export async function createCodeAsAdmin(deps: Deps, actor: Actor | null, body: NewCodeBody) {
  requireAdmin(actor);
  const input: NewDiscountCode = { code: body.code };
  const read = <T>(field: string, typed: string | number | undefined, parse: (t: string) => Parsed<T>): T | undefined => {
    if (typed === undefined || typed === '') return undefined;
    const parsed = parse(String(typed));
    if ('problem' in parsed) throw validationError(parsed.problem, [`${field}: ${parsed.problem}`]);
    return parsed.value;
  };
  input.percent = read('percent', body.percent, parsePercent);
  input.amountCents = read('amount', body.amount, parseAmount);
  input.expiresAt = read('last_day', body.last_day, parseLastDay);
  input.usageLimit = read('usage_limit', body.usage_limit, parseUsageLimit);
  const row = await createDiscountCode(deps.db, input);
  return { data: adminCodeJson(row, NONE, nowOf(deps)) };
}

export interface CodeChange {
  paused?: boolean | undefined;
  /** 'now', or the last day the code works (YYYY-MM-DD). */
  expires?: string | undefined;
}

/** PAUSE / RESUME (paused) and EXPIRE (now, or after a given last day). */
export async function changeCode(deps: Deps, actor: Actor | null, typedCode: string, change: CodeChange) {
  requireAdmin(actor);
  const now = nowOf(deps);
  let expiresAt: Date | undefined;
  if (change.expires !== undefined) {
    const parsed = change.expires === 'now' ? { value: now } : parseLastDay(change.expires);
    if ('problem' in parsed) throw validationError(parsed.problem, [`expires: ${parsed.problem}`]);
    expiresAt = parsed.value;
  }
  if (change.paused === undefined && expiresAt === undefined) throw validationError('Say what to change: paused, or expires.', ['paused: missing', 'expires: missing']);
  const [row] = await deps.db
    .update(discountCodes)
    .set({ ...(change.paused === undefined ? {} : { paused: change.paused }), ...(expiresAt ? { expiresAt } : {}) })
    .where(eq(discountCodes.code, normaliseDiscountCode(typedCode)))
    .returning();
  if (!row) throw notFound(NO_SUCH_CODE);
  const uses = await usesOf(deps, row.id);
  return { data: adminCodeJson(row, uses.get(row.id) ?? NONE, now) };
}

