import { randomInt } from 'node:crypto';
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { passwordResets, sessions, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, validationError } from '../http/errors.ts';
import { createSession, hashToken, normaliseEmail } from './auth-service.ts';
import { MIN_PASSWORD_LENGTH, hashPassword } from './passwords.ts';
import { EMAIL_UNKNOWN, PASSWORD_RULE } from './signup-service.ts';

export const TOKEN_INVALID = 'Reset token either expired or is not valid for this email address.';
// docs/lab-rules.md: 6 characters, 30 minutes, burnt after 5 wrong tries.
export const RESET_TOKEN_LENGTH = 6;
export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
export const RESET_MAX_FAILURES = 5;
// No 0/O or 1/I: the token is read from a mail and typed by hand.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The token as the user may type it: spaces removed, any case (docs/accounts.md §5). */
export const normaliseResetToken = (token: string) => token.replace(/\s+/g, '').toUpperCase();

/** Starts a reset: a new token, mailed; earlier unused tokens of the user stop working. */
export async function forgotPassword(deps: ServerDeps, email: string) {
  const [user] = await deps.db.select().from(users).where(eq(users.email, normaliseEmail(email)));
  if (!user) throw new HttpError(404, 'NotFound', EMAIL_UNKNOWN);
  const now = deps.now?.() ?? new Date();
  const token = Array.from({ length: RESET_TOKEN_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  await deps.db.transaction(async (tx) => {
    await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userGuid, user.guid), isNull(passwordResets.usedAt)));
    await tx.insert(passwordResets).values({ userGuid: user.guid, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS) });
  });
  const base = deps.config.publicUrl ?? '';
  const link = `${base}/reset-password?email=${encodeURIComponent(user.email)}`;
  await deps.mailer.send({
    // Once sent, the outbox keeps the mail without the token: a database reader cannot use it.
    secret: token,
    to: user.email,
    subject: 'Your password reset token',
    text: [
      `Hello ${user.firstName || 'there'},`,
      '',
      `Your password reset token is: ${token}`,
      '',
      `Enter it with your new password at ${link} within 30 minutes.`,
      'If you did not ask to reset your password, you can ignore this mail: your password stays as it is.',
      '',
      'The print lab',
    ].join('\n'),
  });
  return { success: true as const };
}

/**
 * Checks a token against the user's live token. A wrong guess counts; after 5 the token is
 * burnt. Returns the reset row when the token is right.
 */
async function checkToken(deps: ServerDeps, email: string, rawToken: string) {
  const now = deps.now?.() ?? new Date();
  const [row] = await deps.db
    .select({ reset: passwordResets, user: users })
    .from(passwordResets)
    .innerJoin(users, eq(users.guid, passwordResets.userGuid))
    .where(and(eq(users.email, normaliseEmail(email)), isNull(passwordResets.usedAt)))
    .orderBy(desc(passwordResets.createdAt))
    .limit(1);
  if (!row || row.reset.expiresAt <= now) throw new HttpError(404, 'NotFound', TOKEN_INVALID);
  // Every try takes one of the 5 slots first, atomically, so parallel guesses cannot share one;
  // a right token gives its slot back.
  const [slot] = await deps.db
    .update(passwordResets)
    .set({ failedAttempts: sql`${passwordResets.failedAttempts} + 1` })
    .where(and(eq(passwordResets.id, row.reset.id), isNull(passwordResets.usedAt), lt(passwordResets.failedAttempts, RESET_MAX_FAILURES)))
    .returning({ id: passwordResets.id });
  if (!slot) throw new HttpError(404, 'NotFound', TOKEN_INVALID);
  if (row.reset.tokenHash !== hashToken(normaliseResetToken(rawToken))) throw new HttpError(404, 'NotFound', TOKEN_INVALID);
  await deps.db
    .update(passwordResets)
    .set({ failedAttempts: sql`${passwordResets.failedAttempts} - 1` })
    .where(eq(passwordResets.id, row.reset.id));
  return row;
}

export async function validateChallengeToken(deps: ServerDeps, input: { email: string; challenge_token: string }) {
  await checkToken(deps, input.email, input.challenge_token);
  return { success: true as const };
}

/** Sets the new password, ends every other session of the user, and signs them in here. */
export async function resetPassword(
  deps: ServerDeps,
  input: { email: string; challenge_token: string; password: string; password_confirmation: string },
  meta: { ip?: string; userAgent?: string },
) {
  if (input.password.length < MIN_PASSWORD_LENGTH || input.password !== input.password_confirmation) throw validationError(PASSWORD_RULE);
  const { reset, user } = await checkToken(deps, input.email, input.challenge_token);
  const now = deps.now?.() ?? new Date();
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    // Used once: of two resets racing with the same token, only the first gets here.
    const used = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.id, reset.id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    if (!used.length) throw new HttpError(404, 'NotFound', TOKEN_INVALID);
    await tx.update(users).set({ passwordHash, failedLoginCount: 0, failedLoginAt: null, updatedAt: now }).where(eq(users.guid, user.guid));
    await tx.delete(sessions).where(eq(sessions.userGuid, user.guid));
  });
  return createSession(deps, user, meta);
}
