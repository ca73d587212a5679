import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { SessionAnswer } from '../../src/domain/wire.ts';
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


// Sessions last 30 days from the last use (DESIGN.md §5).
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
// Sliding expiry is written at most this often, so reads do not each cost a write.
const SESSION_TOUCH_INTERVAL_MS = 10 * 60 * 1000;
// Per-account guard against password guessing spread over many addresses: after this many
// failures in a row the account refuses sign-in for the lockout window (the IP limit is in the route).
export const MAX_FAILED_LOGINS = 10;
export const LOGIN_LOCKOUT_MS = 15 * 60 * 1000;

export const LOGIN_FAILED_MESSAGE = 'The email or password is not correct.';

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
  const now = deps.now?.() ?? new Date();
  const [user] = await deps.db.select().from(users).where(eq(users.email, normaliseEmail(input.email)));
  if (!user) {
    await verifyPassword(await timingDummyHash(), input.password);
    throw loginFailed();
  }
  // The attempt is counted before the password is checked, in one statement that also refuses a
  // locked account: parallel guesses, even on several API processes, each take one of the
  // MAX_FAILED_LOGINS tries and no more. A failure after the lockout window starts a new count.
  const windowStart = new Date(now.getTime() - LOGIN_LOCKOUT_MS);
  const stale = or(isNull(users.failedLoginAt), lte(users.failedLoginAt, windowStart));
  const [attempt] = await deps.db
    .update(users)
    .set({ failedLoginCount: sql`CASE WHEN ${stale} THEN 1 ELSE ${users.failedLoginCount} + 1 END`, failedLoginAt: now })
    .where(and(eq(users.guid, user.guid), or(stale, lt(users.failedLoginCount, MAX_FAILED_LOGINS))))
    .returning({ guid: users.guid });
  if (!attempt) {
    throw tooManyRequests(
      'Too many failed sign-in attempts for this account. Wait 15 minutes or click RESET to set a new password.',
    );
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) throw loginFailed();
  // A success ends the run of failures (and takes back the try counted above).
  await deps.db.update(users).set({ failedLoginCount: 0, failedLoginAt: null }).where(eq(users.guid, user.guid));
  return createSession(deps, user, meta);
}

const loginFailed = () => new HttpError(401, 'InvalidCredentials', LOGIN_FAILED_MESSAGE);

/** Resolves a token to its actor, sliding the expiry forward; null when unknown or expired. */
export async function authenticate(deps: Pick<ServerDeps, 'db' | 'now'>, token: string): Promise<Actor | null> {
  const now = deps.now?.() ?? new Date();
  const [row] = await deps.db
    .select({ user: users, sessionId: sessions.id, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .innerJoin(users, eq(users.guid, sessions.userGuid))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, now)));
  if (!row) return null;
  if (now.getTime() - row.lastUsedAt.getTime() > SESSION_TOUCH_INTERVAL_MS) {
    await deps.db
      .update(sessions)
      .set({ lastUsedAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
      .where(eq(sessions.id, row.sessionId));
  }
  return { user: row.user, sessionId: row.sessionId };
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
