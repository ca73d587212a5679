import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { SessionAnswer } from '../../src/contract/session.ts';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, tooManyRequests, unauthorized } from '../http/errors.ts';
import { timingDummyHash, verifyPassword } from './passwords.ts';

export type UserRow = typeof users.$inferSelect;

/** Who is calling: the signed-in user and the session the token belongs to. */
export interface Actor {
  user: UserRow;
  sessionId: string;
}


// Sessions last 30 days from the last use (docs/lab-rules.md §1).
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
// Sliding expiry is written at most this often, so reads do not each cost a write.
const SESSION_TOUCH_INTERVAL_MS = 10 * 60 * 1000;
// Per-account guard against password guessing spread over many addresses: after this many
// failures in a row the account refuses sign-in for the lockout window (the IP limit is in the route).
export const MAX_FAILED_LOGINS = 10;
export const LOGIN_LOCKOUT_MS = 15 * 60 * 1000;

export const LOGIN_FAILED_MESSAGE = 'The email or password is not correct.';
export const SIGN_IN_LOCKED = 'Too many failed sign-in attempts for this account. Wait 15 minutes or click RESET to set a new password.';
export const PASSWORD_CHECK_LOCKED = 'Too many wrong passwords for this account. Wait 15 minutes and try again, or sign out and click RESET to set a new password.';

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const fullName = (u: Pick<UserRow, 'firstName' | 'lastName'>): string => `${u.firstName} ${u.lastName}`.trim();

/** The help-chat identity hash: HMAC-SHA256 of the email with the chat's secret (or ours). */
export function identityHash(deps: Pick<ServerDeps, 'config' | 'appSecret'>, email: string): string {
  return createHmac('sha256', deps.config.intercomSecret ?? deps.appSecret).update(email).digest('hex');
}

export async function createSession(
  deps: ServerDeps,
  user: UserRow,
  meta: { ip?: string; userAgent?: string; impersonatorGuid?: string },
): Promise<SessionAnswer> {
  const now = deps.now?.() ?? new Date();
  // 256 random bits; only the hash is stored.
  const token = randomBytes(32).toString('base64url');
  await deps.db.insert(sessions).values({
    tokenHash: hashToken(token),
    userGuid: user.guid,
    impersonatorGuid: meta.impersonatorGuid ?? null,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
  });
  return {
    token,
    guid: user.guid,
    intercom_user_hash: identityHash(deps, user.email),
    email: user.email,
    name: fullName(user),
    business_name: user.businessName,
    is_admin: user.isAdmin,
  };
}

export async function login(
  deps: ServerDeps,
  input: { email: string; password: string },
  meta: { ip?: string; userAgent?: string },
): Promise<SessionAnswer> {
  const [user] = await deps.db.select().from(users).where(eq(users.email, normaliseEmail(input.email)));
  if (!user) {
    await verifyPassword(await timingDummyHash(), input.password);
    throw loginFailed();
  }
  if (!(await checkPassword(deps, user.guid, input.password, SIGN_IN_LOCKED))) throw loginFailed();
  return createSession(deps, user, meta);
}

const loginFailed = () => new HttpError(401, 'InvalidCredentials', LOGIN_FAILED_MESSAGE);

/**
 * Checks an account's password under the per-account lockout (docs/lab-rules.md §1) that sign-in and the
 * in-session checks (email or password change) share: after MAX_FAILED_LOGINS failures in a row
 * the account refuses every password check with 429 and `lockedMessage` for LOGIN_LOCKOUT_MS.
 * Each try takes its place in the run first, in one statement, so tries sent at once cannot
 * all pass the check before any is counted; a right password ends the run.
 */
export async function checkPassword(deps: Pick<ServerDeps, 'db' | 'now'>, userGuid: string, password: string, lockedMessage: string): Promise<boolean> {
  const now = deps.now?.() ?? new Date();
  const windowStart = new Date(now.getTime() - LOGIN_LOCKOUT_MS);
  // A failure longer ago than the lockout window no longer counts: the run starts again.
  const stale = or(isNull(users.failedLoginAt), lt(users.failedLoginAt, windowStart));
  const [slot] = await deps.db
    .update(users)
    .set({ failedLoginCount: sql`case when ${stale} then 1 else ${users.failedLoginCount} + 1 end`, failedLoginAt: now })
    .where(and(eq(users.guid, userGuid), or(stale, lt(users.failedLoginCount, MAX_FAILED_LOGINS))))
    .returning({ passwordHash: users.passwordHash });
  if (!slot) throw tooManyRequests(lockedMessage);
  if (!(await verifyPassword(slot.passwordHash, password))) return false;
  // Only when a failure was counted: a right password otherwise writes nothing.
  await deps.db.update(users).set({ failedLoginCount: 0, failedLoginAt: null }).where(and(eq(users.guid, userGuid), or(gt(users.failedLoginCount, 0), isNotNull(users.failedLoginAt))));
  return true;
}

/** Resolves a session token, by its hash (hashToken), to its actor; null when unknown or expired. */
export type Authenticator = (tokenHash: string) => Promise<Actor | null>;

/**
 * The session lookup every signed-in call makes, its SQL built once (a Drizzle prepared query:
 * building this select of the user's ~30 columns cost about as much as running it). It slides
 * the expiry forward, written at most every SESSION_TOUCH_INTERVAL_MS.
 */
export function createAuthenticator(deps: Pick<ServerDeps, 'db' | 'now'>): Authenticator {
  const lookup = deps.db
    .select({ user: users, sessionId: sessions.id, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .innerJoin(users, eq(users.guid, sessions.userGuid))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .prepare('authenticate');
  return async (tokenHash) => {
    const now = deps.now?.() ?? new Date();
    // A placeholder gets no column encoder: the time goes as the text PostgreSQL reads.
    const [row] = await lookup.execute({ tokenHash, now: now.toISOString() });
    if (!row) return null;
    if (now.getTime() - row.lastUsedAt.getTime() > SESSION_TOUCH_INTERVAL_MS) {
      await deps.db
        .update(sessions)
        .set({ lastUsedAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
        .where(eq(sessions.id, row.sessionId));
    }
    return { user: row.user, sessionId: row.sessionId };
  };
}

/** Ends the caller's session. */
export async function logout(db: Db, actor: Actor | null): Promise<void> {
  if (!actor) throw unauthorized();
  await db.delete(sessions).where(eq(sessions.id, actor.sessionId));
}

/** Ends every session of the caller, on every device. */
export async function logoutAllSessions(db: Db, actor: Actor | null): Promise<void> {
  if (!actor) throw unauthorized();
  await db.delete(sessions).where(eq(sessions.userGuid, actor.user.guid));
}

export async function purgeExpiredSessions(db: Db, now = new Date()): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}
