import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { crashPoint, type CrashPoint } from '../crash-point.ts';
import type { Db } from '../db/client.ts';
import { perDatabase } from '../db/prepared.ts';
import { idempotencyKeys } from '../db/schema.ts';
import type { SecretBox } from '../services/webhook-secrets.ts';
import { HttpError, badRequest } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencySlot: { scope: string; key: string } | null;
    /**
     * The id a record this request creates gets (`what` names the kind): with an Idempotency-Key
     * the same for every try of the request, so a try that runs again after a crash (its answer
     * never stored, its claim taken over) meets the record the first try made instead of making a
     * second one; without a key a fresh one.
     */
    changeGuid(what: string): string;
  }
  interface FastifyContextConfig {
    /**
     * false: the call accepts an Idempotency-Key but its answer is never stored (calls that
     * answer with a session token: a token must not sit in clear text in the database), and it is
     * always carried out (logout: "signed out" must be true of the session asking).
     * 'sealed': kept and replayed as any other, but stored sealed (AES-256-GCM, WEBHOOK_SECRET_KEY),
     * for an answer that shows a secret once (a webhook's signing secret). Not false: a double
     * click or a retry after a lost answer must meet the first registration, not make a second.
     */
    idempotency?: boolean | 'sealed';
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const HEADER = 'idempotency-key';
// Long enough for any UUID or ULID a client makes; short enough to index cheaply.
const MAX_KEY_LENGTH = 200;
// Answers are kept a day: far longer than any outbox retry, short enough to keep the table small.
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
// Answers worth replaying: successes and refusals that the same request would get again.
// 401/403/409/429 and 5xx depend on the moment, so a retry runs afresh.
const STORED = (status: number) => status <= 400 || status === 404 || status === 422;
// A claim with no answer after this long belongs to a request that died (client gone, process
// killed): the next retry takes it over instead of waiting a day.
const ABANDONED_AFTER_MS = 60 * 1000;

/**
 * The claim every change with a key makes first, built once per database. Its commit does not
 * wait for the disk (synchronous_commit off for this one statement's transaction, set inside it):
 * losing the claim in a crash of the database is harmless. If the change itself never committed,
 * the retry claims the key again and makes the change, as it should. If the change committed, its
 * commit waited for the disk, and PostgreSQL writes its log in order, so that wait flushed the
 * claim's earlier commit too: a claim can only be lost together with a change that was lost.
 * The stored answer (onSend) still waits for the disk: it is what keeps a retry from making the
 * change twice. This saves a disk flush on every change, during which a pooled
 * connection stood idle.
 */
const claimQuery = perDatabase((db) =>
  db
    .insert(idempotencyKeys)
    .values({
      scope: sql.placeholder('scope'),
      key: sql.placeholder('key'),
      fingerprint: sql.placeholder('fingerprint'),
      sessionId: sql.placeholder('sessionId'),
      createdAt: sql`(SELECT now() FROM set_config('synchronous_commit', 'off', true))`,
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key })
    .prepare('idempotency_claim'),
);

/**
 * Idempotency-Key for every mutating call (docs/api.md §3): the first answer is stored per caller
 * and key; a replay with the same request gets it back and changes nothing twice. `crashAt`: the
 * crash test's point (crash-point.ts), unset outside it.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, secret: string, crashAt: CrashPoint | undefined, sealer: SecretBox): void {
  app.decorateRequest('idempotencySlot', null);
  app.decorateRequest('changeGuid', function (this: FastifyRequest, what: string) {
    const slot = this.idempotencySlot;
    return slot ? guidOf(secret, `${slot.scope}\n${slot.key}\n${what}`) : randomUUID();
  });

  // Reads and calls without a key (most requests) pass through the callback-style hooks below
  // without a promise or a turn of the event loop.
  app.addHook('preHandler', (request, reply, done) => {
    const key = request.headers[HEADER];
    if (!MUTATING.has(request.method) || typeof key !== 'string' || request.routeOptions.config.idempotency === false) return done();
    // A replayed answer is sent from the hook: then the request goes no further (no done()).
    claim(request, reply, key).then((replayed) => replayed === undefined && done(), done);
  });

  const claim = async (request: FastifyRequest, reply: FastifyReply, key: string): Promise<FastifyReply | undefined> => {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) throw badRequest(`The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters.`);
    // Keys are unique per user, so a change is never made twice by any of the user's sessions;
    // the answer of a change made is replayed only to the session that made it (a refusal to any).
    const scope = request.actor ? `user:${request.actor.user.guid}` : 'anonymous';
    const sessionId = request.actor?.sessionId ?? null;
    // Keyed with the server's secret: bodies may hold passwords, and a plain hash of one could be
    // guessed far faster than its argon2 hash.
    const fingerprint = createHmac('sha256', secret)
      .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest('hex');
    const claimed = await claimQuery(db).execute({ scope, key, fingerprint, sessionId });
    if (claimed.length) {
      request.idempotencySlot = { scope, key };
      return undefined;
    }
    return replay(db, request, reply, { scope, key, fingerprint, sessionId }, true, sealer);
  };

  app.addHook('onSend', (request, reply, payload, done) => {
    const slot = request.idempotencySlot;
    if (!slot) return done(null, payload);
    request.idempotencySlot = null;
    store(request, reply, slot, payload).then(() => done(null, payload), done);
  });

  const store = async (request: FastifyRequest, reply: FastifyReply, slot: { scope: string; key: string }, payload: unknown) => {
    const where = and(eq(idempotencyKeys.scope, slot.scope), eq(idempotencyKeys.key, slot.key));
    if (!STORED(reply.statusCode)) {
      await db.delete(idempotencyKeys).where(where);
      return;
    }
    let response: unknown = null;
    if (typeof payload === 'string' && payload.length > 0) {
      try {
        response = JSON.parse(payload);
      } catch {
        response = payload;
      }
    }
    if (request.routeOptions.config.idempotency === 'sealed') response = { sealed: sealer.seal(JSON.stringify(response), sealContext(slot)) };
    // The change has committed and its answer is not stored yet: the window changeGuid covers.
    crashPoint(crashAt, 'idempotent-change-committed');
    await db.update(idempotencyKeys).set({ statusCode: reply.statusCode, response }).where(where);
  };
}

/** A version-4-shaped uuid from a keyed hash: the same input, the same id; unguessable without the secret. */
function guidOf(secret: string, input: string): string {
  const bytes = createHmac('sha256', secret).update(input).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What a sealed answer is bound to: the caller and key it was stored for. */
const sealContext = (slot: { scope: string; key: string }) => `idempotency_keys:${slot.scope}\n${slot.key}`;

async function replay(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  want: { scope: string; key: string; fingerprint: string; sessionId: string | null },
  mayClaimAgain: boolean,
  sealer: SecretBox,
): Promise<FastifyReply | undefined> {
  const where = and(eq(idempotencyKeys.scope, want.scope), eq(idempotencyKeys.key, want.key));
  const [row] = await db.select().from(idempotencyKeys).where(where);
  if (!row && mayClaimAgain) {
    // The first request ended with an answer that is not kept, between our insert and select.
    const claimed = await db.insert(idempotencyKeys).values(want).onConflictDoNothing().returning({ key: idempotencyKeys.key });
    if (claimed.length) {
      request.idempotencySlot = { scope: want.scope, key: want.key };
      return undefined;
    }
    return replay(db, request, reply, want, false, sealer);
  }
  if (!row || row.fingerprint !== want.fingerprint) {
    throw new HttpError(422, 'IdempotencyKeyReused', 'This request was already sent with different content.', {
      developerMessage: 'The Idempotency-Key was used before for a different request; send a new key.',
    });
  }
  if (row.statusCode === null) {
    // Compared in SQL: the database keeps microseconds a JavaScript Date would lose.
    const retaken = await db
      .update(idempotencyKeys)
      // Taken over, the answer belongs to the session that makes it now.
      .set({ createdAt: sql`now()`, sessionId: want.sessionId })
      .where(and(where, isNull(idempotencyKeys.statusCode), lt(idempotencyKeys.createdAt, sql`now() - make_interval(secs => ${ABANDONED_AFTER_MS / 1000})`)))
      .returning({ key: idempotencyKeys.key });
    // A class of its own: a client that sent the same request again (a reloaded page, a second
    // tab) waits and asks again, where other 409s (OrderNotOpen, UploadSealed) are final.
    if (!retaken.length) throw new HttpError(409, 'RequestInProgress', 'This request is still being processed. Try again in a moment.');
    request.idempotencySlot = { scope: want.scope, key: want.key };
    return undefined;
  }
  // Checked only once the answer is in: while the first request still runs, another sign-in of
  // the user (a photographer who signed out with a photo's call on its way, and back in) is told
  // to ask again in a moment, as any client is. Told at once to send a new key, it would make the
  // same change alongside the first (a photo confirmed twice at once, one of them refused).
  // Only a change that was made belongs to its session (a replayed "signed out" would be a lie to
  // another one). A stored refusal is what this request gets from anyone of the user (STORED keeps
  // only refusals the same request would get again), and says nothing of another session: it is
  // replayed, so a client told IdempotencyKeyReused knows the change was made.
  if (row.sessionId !== want.sessionId && row.statusCode < 400) {
    throw new HttpError(409, 'IdempotencyKeyReused', 'This request was already sent from another sign-in of your account, so it was not made again.', {
      developerMessage: 'The Idempotency-Key was used by another session of this user; its answer belongs to that session. Send a new key to make the change again.',
    });
  }
  const stored = row.response as { sealed?: unknown } | null;
  const response = request.routeOptions.config.idempotency === 'sealed' && typeof stored?.sealed === 'string' ? JSON.parse(sealer.open(stored.sealed, sealContext(want))) : row.response;
  return reply.code(row.statusCode).header('idempotent-replayed', 'true').send(response);
}

export async function purgeIdempotencyKeys(db: Db, now = new Date()): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)));
}

