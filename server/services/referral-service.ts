import { and, asc, count, eq, sql } from 'drizzle-orm';
import { toDollars } from '../../src/domain/money.ts';
import { referralCreditCents } from '../../src/domain/pricing.ts';
import { REFERRAL_CODE_RULE, ownReferralCodeProblem } from '../../src/domain/validation.ts';
import type { Tx } from '../db/client.ts';
import { perDatabase } from '../db/prepared.ts';
import { refusingDuplicates } from '../db/unique-violation.ts';
import { creditLedger, labOrders, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, unauthorized, validationError } from '../http/errors.ts';
import { photographerPage, type ReferralJson } from './account-reads.ts';
import { userFields } from './account-service.ts';
import type { Actor } from './auth-service.ts';
import { findByReferralCode, normaliseReferralCode } from './signup-service.ts';

export const REFERRAL_CODE_IN_USE = 'This referral code is already in use.';

/** A photographer's own referral code editor (docs/accounts.md §2, credit page). Admins may edit anyone's. */
export async function updateOwnReferralCode(deps: ServerDeps, actor: Actor | null, guid: string, rawCode: string) {
  if (!actor) throw unauthorized();
  if (actor.user.guid !== guid && !actor.user.isAdmin) throw notFound('This photographer does not exist.');
  const code = normaliseReferralCode(rawCode);
  if (ownReferralCodeProblem(code, true)) throw validationError(REFERRAL_CODE_RULE);
  const holder = await findByReferralCode(deps, code);
  if (holder && holder.guid !== guid) throw validationError(REFERRAL_CODE_IN_USE);
  // Two photographers claiming one code at once: the index lets one have it, the other is told so.
  const [updated] = await refusingDuplicates(() => deps.db.update(users).set({ referralCode: code }).where(eq(users.guid, guid)).returning({ guid: users.guid }), {
    users_referral_code_key: () => validationError(REFERRAL_CODE_IN_USE),
  });
  if (!updated) throw notFound('This photographer does not exist.');
  const [referred] = await deps.db.select({ n: count() }).from(users).where(eq(users.referredByGuid, guid));
  return { user: { guid, referral_code: code, referred_users: referred?.n ?? 0 } };
}

/** The photographers someone referred, with the credit each earned them (REFERRAL REPORT), less what a cancellation took back. */
const referralsOf = perDatabase((db) =>
  db
    .select({
      guid: users.guid,
      firstName: users.firstName,
      lastName: users.lastName,
      businessName: users.businessName,
      email: users.email,
      earned: sql<number>`coalesce((select sum(${creditLedger.amountCents}) from ${creditLedger} where ${creditLedger.userGuid} = ${sql.placeholder('referrer')} and ${creditLedger.referredUserGuid} = ${users.guid} and ${creditLedger.reason} in ('referral', 'referral_clawback')), 0)`,
    })
    .from(users)
    .where(eq(users.referredByGuid, sql.placeholder('referrer')))
    .orderBy(asc(users.createdAt))
    .prepare('referral_rows'),
);

export async function referralRows(deps: ServerDeps, referrerGuid: string) {
  const rows = await referralsOf(deps.db).execute({ referrer: referrerGuid });
  return rows.map(referralShape);
}

/** A REFERRAL REPORT row. */
const referralShape = (r: Pick<ReferralJson, 'firstName' | 'lastName' | 'businessName' | 'email'> & { earned: number | string }) => ({
  name: `${r.firstName} ${r.lastName}`.trim(),
  business_name: r.businessName,
  email: r.email,
  credit_earned: toDollars(Number(r.earned)),
});

export async function myReferrals(deps: ServerDeps, actor: Actor | null) {
  if (!actor) throw unauthorized();
  return { data: await referralRows(deps, actor.user.guid) };
}

/** A photographer's credit and referral page: their own, or any photographer's for an admin. */
export async function photographerCredit(deps: ServerDeps, actor: Actor | null, guid: string) {
  if (!actor) throw unauthorized();
  if (actor.user.guid !== guid && !actor.user.isAdmin) throw notFound('This photographer does not exist.');
  // One query: the user, who referred them, and whom they referred.
  const [row] = await photographerPage(deps.db).execute({ guid });
  if (!row) throw notFound('This photographer does not exist.');
  const facts = { referredUsers: row.referrals.length, referrerEmail: row.referrerEmail };
  return { data: { user: await userFields(deps, row.user, facts), referrals: row.referrals.map(referralShape) } };
}

/**
 * When a referred photographer's order is paid, their referrer earns REFERRAL_CREDIT_PERCENT of
 * its subtotal as credit (docs/lab-rules.md §3). Once per order; called by the payment step inside the
 * transaction that marks the order paid, so the credit and the payment stand or fall together.
 */
export async function accrueReferralCredit(tx: Tx, referralCreditPercent: number, labOrderId: number): Promise<number> {
  const [row] = await tx
    .select({ order: labOrders, referrer: users.referredByGuid })
    .from(labOrders)
    .innerJoin(users, eq(users.guid, labOrders.userGuid))
    .where(eq(labOrders.id, labOrderId));
  if (!row?.referrer || !row.order.paidAt) return 0;
  const referrer = row.referrer;
  const cents = referralCreditCents(row.order.subtotalCents, referralCreditPercent);
  if (cents <= 0) return 0;
  const inserted = await tx
    .insert(creditLedger)
    .values({ userGuid: referrer, amountCents: cents, reason: 'referral', referredUserGuid: row.order.userGuid, labOrderId })
    .onConflictDoNothing()
    .returning({ id: creditLedger.id });
  if (!inserted.length) return 0;
  await tx.update(users).set({ creditAvailableCents: sql`${users.creditAvailableCents} + ${cents}` }).where(eq(users.guid, referrer));
  return cents;
}

// The credit ledger's reasons for a referral's credit and its taking back (one of each per order:
// the ledger's unique (order, reason) index makes both happen once).
const REFERRAL = 'referral';
const REFERRAL_CLAWBACK = 'referral_clawback';

export interface Clawback {
  referrerGuid: string;
  /** What the order earned the referrer. */
  earnedCents: number;
  /** What was taken back: all of it, or what the referrer still had when they spent some. */
  takenCents: number;
}

/**
 * An order that was cancelled (or refunded in full) earns its referrer nothing: the credit its
 * payment accrued is taken back, in the caller's transaction. Never below zero: a referrer who has
 * spent it already loses what is left, and the ledger row records what was taken (the shortfall is
 * earned less taken). Once per order; null when the order earned nothing or was taken back before.
 */
export async function clawBackReferralCredit(tx: Tx, labOrderId: number): Promise<Clawback | null> {
  const [earned] = await tx
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.labOrderId, labOrderId), eq(creditLedger.reason, REFERRAL)));
  if (!earned || earned.amountCents <= 0) return null;
  const [already] = await tx
    .select({ id: creditLedger.id })
    .from(creditLedger)
    .where(and(eq(creditLedger.labOrderId, labOrderId), eq(creditLedger.reason, REFERRAL_CLAWBACK)));
  if (already) return null;
  // The referrer's row locked: a checkout of theirs spending credit waits, so what is taken is what they have.
  const [referrer] = await tx.select({ credit: users.creditAvailableCents }).from(users).where(eq(users.guid, earned.userGuid)).for('update');
  if (!referrer) return null;
  const takenCents = Math.min(earned.amountCents, Math.max(0, referrer.credit));
  const inserted = await tx
    .insert(creditLedger)
    .values({ userGuid: earned.userGuid, amountCents: -takenCents, reason: REFERRAL_CLAWBACK, referredUserGuid: earned.referredUserGuid, labOrderId })
    .onConflictDoNothing()
    .returning({ id: creditLedger.id });
  if (!inserted.length) return null;
  if (takenCents > 0) {
    await tx
      .update(users)
      .set({ creditAvailableCents: sql`${users.creditAvailableCents} - ${takenCents}` })
      .where(eq(users.guid, earned.userGuid));
  }
  return { referrerGuid: earned.userGuid, earnedCents: earned.amountCents, takenCents };
}

/** The order history's words for a clawback: what was taken back, and what could not be. */
export function clawbackText(c: Clawback, money: (cents: number) => string): string {
  const short = c.earnedCents - c.takenCents;
  return short > 0
    ? `referral credit taken back: ${money(c.takenCents)} of ${money(c.earnedCents)} (the referrer had spent ${money(short)})`
    : `referral credit taken back: ${money(c.takenCents)}`;
}
