import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { brokenUniqueIndex } from '../db/unique-violation.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, notFound, unauthorized, validationError } from '../http/errors.ts';
import { createSession, normaliseEmail, type Actor } from './auth-service.ts';
import { MIN_PASSWORD_LENGTH, hashPassword } from './passwords.ts';

/** The spec's words (docs/accounts.md §5). */
export const EMAIL_IN_USE = 'Email already in use. Please login or reset your password.';
export const EMAIL_UNKNOWN = 'Email does not exist. Please register as a new user.';
export const REFERRAL_CODE_UNKNOWN = 'This referral code does not exist.';
import { PASSWORD_RULE } from '../../src/domain/password-rule.ts';

export { PASSWORD_RULE };
export const TENNESSEE_NEEDS_CERTIFICATE =
  'A business in Tennessee needs a blanket certificate of resale on file. Please upload it as a PDF.';

// Social profiles go to social_media_url; any other address is the business website.
const SOCIAL = /(^|\.)(instagram|facebook|fb|tiktok|twitter|x|pinterest|linkedin|youtube|threads|behance|flickr|500px)\.(com|net|me)(\/|$)/i;

export const normaliseReferralCode = (code: string) => code.trim().toUpperCase();

export interface SignUpInput {
  email: string;
  first_name: string;
  last_name: string;
  website?: string | undefined;
  password: string;
  password_confirmation: string;
}

/** Step 1 of sign-up: the account, signed in at once (docs/accounts.md §4). */
export async function signUp(deps: ServerDeps, input: SignUpInput, meta: { ip?: string; userAgent?: string }) {
  if (input.password.length < MIN_PASSWORD_LENGTH || input.password !== input.password_confirmation) throw validationError(PASSWORD_RULE);
  const email = normaliseEmail(input.email);
  const website = input.website?.trim() || null;
  const host = website ? website.replace(/^https?:\/\//i, '').split('/')[0] ?? '' : '';
  const social = website !== null && SOCIAL.test(`${host}/`);
  const passwordHash = await hashPassword(input.password);
  const insert = async () =>
    deps.db
      .insert(users)
      .values({
        email,
        passwordHash,
        firstName: input.first_name.trim(),
        lastName: input.last_name.trim(),
        businessUrl: social ? null : website,
        socialMediaUrl: social ? website : null,
        referralCode: await freeReferralCode(deps, input.first_name),
        termsAcceptedAt: deps.now?.() ?? new Date(),
      })
      .onConflictDoNothing({ target: users.email })
      .returning();
  // Two sign-ups of one first name at once may draw the same free code: the later one draws again.
  const [user] = await insert().catch((err: unknown) => {
    if (brokenUniqueIndex(err) === 'users_referral_code_key') return insert();
    throw err;
  });
  if (!user) throw new HttpError(422, 'EmailInUse', EMAIL_IN_USE);
  return createSession(deps, user, meta);
}

/** A referral code of the photographer's own: their first name and four digits, e.g. ANSEL4821. */
async function freeReferralCode(deps: ServerDeps, firstName: string): Promise<string> {
  const stem = firstName.normalize('NFKD').replace(/[^A-Za-z]/g, '').toUpperCase().slice(0, 8) || 'LAB';
  for (;;) {
    const code = `${stem}${randomInt(1000, 10000)}`;
    const [taken] = await deps.db.select({ guid: users.guid }).from(users).where(eq(users.referralCode, code));
    if (!taken) return code;
  }
}

/** Success means the email has an account (forgot password) or is taken (sign-up). */
export async function checkForEmail(deps: ServerDeps, email: string): Promise<void> {
  const [user] = await deps.db.select({ guid: users.guid }).from(users).where(eq(users.email, normaliseEmail(email)));
  if (!user) throw new HttpError(404, 'NotFound', EMAIL_UNKNOWN);
}

export async function findByReferralCode(deps: ServerDeps, code: string) {
  const [user] = await deps.db.select().from(users).where(eq(users.referralCode, normaliseReferralCode(code)));
  return user ?? null;
}

/** Success means the referral code belongs to a photographer. */
export async function checkReferralCode(deps: ServerDeps, code: string): Promise<void> {
  if (!(await findByReferralCode(deps, code))) throw notFound(REFERRAL_CODE_UNKNOWN);
}

/** Steps 2 and 3 of sign-up: the referrer, or the Tennessee answer (docs/accounts.md §4). */
export async function updateNewUser(deps: ServerDeps, actor: Actor | null, input: { code?: string | undefined; tn_business?: boolean | undefined }) {
  if (!actor) throw unauthorized();
  const me = actor.user;
  if (input.code !== undefined) {
    const referrer = await findByReferralCode(deps, input.code);
    if (!referrer) throw validationError(REFERRAL_CODE_UNKNOWN);
    if (referrer.guid === me.guid) throw validationError('You cannot use your own referral code.');
    if (me.referredByGuid && me.referredByGuid !== referrer.guid) throw validationError('You already have a referring photographer.');
    await deps.db.update(users).set({ referredByGuid: referrer.guid, updatedAt: sql`now()` }).where(eq(users.guid, me.guid));
  }
  if (input.tn_business !== undefined) {
    if (input.tn_business && !me.blanketCertificateKey) throw validationError(TENNESSEE_NEEDS_CERTIFICATE);
    await deps.db.update(users).set({ tnBusiness: input.tn_business, updatedAt: sql`now()` }).where(eq(users.guid, me.guid));
  }
  return { success: true as const };
}
