import { count, eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, unauthorized, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { findByReferralCode, normaliseReferralCode } from './signup-service.ts';

export const REFERRAL_CODE_IN_USE = 'This referral code is already in use.';
export const REFERRAL_CODE_RULE = 'A referral code is 3 to 30 letters and digits.';

/** A photographer's own referral code editor (accounts.md §2, credit page). Admins may edit anyone's. */
export async function updateOwnReferralCode(deps: ServerDeps, actor: Actor | null, guid: string, rawCode: string) {
  if (!actor) throw unauthorized();
  if (actor.user.guid !== guid && !actor.user.isAdmin) throw notFound('This photographer does not exist.');
  const code = normaliseReferralCode(rawCode);
  if (!/^[A-Z0-9]{3,30}$/.test(code)) throw validationError(REFERRAL_CODE_RULE);
  const holder = await findByReferralCode(deps, code);
  if (holder && holder.guid !== guid) throw validationError(REFERRAL_CODE_IN_USE);
  const [updated] = await deps.db.update(users).set({ referralCode: code }).where(eq(users.guid, guid)).returning({ guid: users.guid });
  if (!updated) throw notFound('This photographer does not exist.');
  const [referred] = await deps.db.select({ n: count() }).from(users).where(eq(users.referredByGuid, guid));
  return { user: { guid, referral_code: code, referred_users: referred?.n ?? 0 } };
}
