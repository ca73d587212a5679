/**
 * Sends one owner's outbox to the lab: in the order the changes were made, one at a time, each
 * with the Idempotency-Key stored on its row (a try repeated after a crash or a lost answer is a
 * replay the lab recognises, so nothing is done twice). The page (outbox-sync.ts) and the service
 * worker's Background Sync (workers/sw.ts) both run this one function, never at the same time.
 * It imports nothing that needs a page: no local storage, no React, no connectivity store.
 */
import type { LineItemCalls } from '../api/line-item-calls.ts';
import type { LabDatabase, LineItemRow, OutboxEntry } from './db.ts';
import { newId } from '../client-rules/ids.ts';
import { applyFullOrder, applyLineItems, settlePending } from './order-apply.ts';
import { readWholeOrder } from './order-read.ts';
import { entryLineItemGuids, readEntry, sendEntry, type ReadEntry, type SendOutcome } from './outbox-handlers.ts';
import { GONE_TEXT, countAppliedSend, stampSent } from './sent-marks.ts';

// After the lab fails a change (5xx, 429, a proxy's error page), the first retry comes soon:
// most such failures are a deploy or a moment of load and are over within seconds.
export const BACKOFF_FIRST_MS = 2_000;
// Each further failure of the same change doubles the wait, so a lab in trouble is not flooded
// by every photographer's device at once ...
export const BACKOFF_FACTOR = 2;
// ... up to a try every 5 minutes: a long outage still ends with the changes sent soon after.
export const BACKOFF_MAX_MS = 5 * 60_000;
// Each wait is spread by up to ±20 % so devices that failed together do not retry together.
export const BACKOFF_JITTER = 0.2;

/** The wait before try number attempts + 1, with the jitter drawn from random() in [0, 1). */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_FIRST_MS * BACKOFF_FACTOR ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
  return Math.round(base * (1 + BACKOFF_JITTER * (2 * random() - 1)));
}

export interface DrainDeps {
  db: LabDatabase;
  owner: string;
  calls: LineItemCalls;
  now?: () => number;
  random?: () => number;
  /**
   * Told of each answer written, inside its transaction: by default this context's count
   * (sent-marks.ts), which reads of the order in this page check.
   */
  countApplied?: () => void;
}

export type DrainResult =
  | { status: 'done'; sent: number }
  /** The lab failed a change: nothing more is sent before retryAt (order is kept). */
  | { status: 'waiting'; sent: number; retryAt: number }
  /** No answer: send again when the connection returns. */
  | { status: 'offline'; sent: number }
  /** The owner's session has ended: the changes wait for them to sign in again. */
  | { status: 'unauthorized'; sent: number }
  /** Another drain (the other side: page or service worker) is running. */
  | { status: 'busy'; sent: 0 };

/** What the drain needs of a failed call: ApiError (src/api/errors.ts) and the worker's error have it. */
interface CallFailure {
  kind: 'server' | 'http' | 'network';
  status: number | null;
  className: string | null;
  message: string;
}

const asFailure = (err: unknown): CallFailure | null =>
  err instanceof Error && 'kind' in err && 'status' in err ? (err as unknown as CallFailure) : null;

/**
 * A failure that is the lab's momentary trouble, worth the same change again later. A 409
 * RequestInProgress is one too: an earlier try of this very change (its answer lost, or sent by
 * the other side, page or service worker) is still running at the lab, which answers the next try
 * with its result once it has one.
 */
const isTransient = (f: CallFailure) =>
  f.status === null || f.status >= 500 || f.status === 408 || f.status === 429 || (f.status === 409 && f.className === 'RequestInProgress');

/**
 * The lab already answered this very change (same key, same content) to an earlier sign-in of the
 * user: the photographer signed out while its answer was on its way, and back in. The lab keeps
 * the answer of a change it made for the sign-in that made it, so this one is told the change was
 * not made again; a refusal it replays to any sign-in (server/http/idempotency.ts). So this answer
 * means the change was made: no refusal of this try.
 */
const answeredToAnotherSignIn = (f: CallFailure) => f.status === 409 && f.className === 'IdempotencyKeyReused';

/**
 * Sends one change; when its answer went to an earlier sign-in, reads the order instead: the lab's
 * copy then shows whatever that first try did (a line item added, changed, or not), in place of
 * the answer this sign-in cannot have. The key is not changed for a new try: an add sent again
 * under a new key would add the line items a second time.
 */
async function sendOrRead(entry: ReadEntry, calls: LineItemCalls, idempotencyKey: string): Promise<SendOutcome> {
  try {
    return await sendEntry(entry, { calls, idempotencyKey });
  } catch (err) {
    const f = asFailure(err);
    if (!f || !answeredToAnotherSignIn(f)) throw err;
    return { order: await readWholeOrder(calls, entry.payload.orderGuid) };
  }
}

/**
 * The words a refused line item shows: what happened and what the user can do about it. The
 * screens put "The lab refused this change:" (or the like) in front, so these do not repeat it.
 */
export function refusalText(f: CallFailure, change: ReadEntry['name']): string {
  // A refused add never reached the lab: the item is only on this device until dismissed.
  const added = change === 'addLineItems';
  if (!added && isGone(f)) return GONE_TEXT;
  switch (f.className) {
    case 'OrderNotOpen':
      return 'This order is no longer open, so its cart cannot change. Dismiss to see the cart as the lab has it.';
    case 'ProductUnavailable':
      return added
        ? 'The lab no longer offers this print size or finishing, so this line item was not added. Dismiss it and add the photo again with another choice.'
        : 'The lab no longer offers this print size or finishing. Edit this line item to choose another, or delete it.';
    case 'PhotoMissing':
      return added
        ? 'This photo is no longer in the order, so this line item was not added. Upload the photo again, then add it.'
        : 'This photo is no longer in the order. Upload it again, or delete this line item.';
    default: {
      // The lab's messages end with a full stop; one is enough.
      const said = f.message.trim().replace(/\.+$/, '');
      return `${said ? `${said}. ` : ''}Dismiss to see the line item as the lab has it.`;
    }
  }
}

/** A change of a line item the lab no longer has (deleted on another device, or by the lab). */
const isGone = (f: CallFailure) => f.status === 404 && (f.className === null || f.className === 'NotFound');

/** Outbox rows of one owner in sending order: rows of version 1 (no seq) first, by time made. */
export async function ownerOutbox(db: LabDatabase, owner: string): Promise<OutboxEntry[]> {
  const rows = await db.outbox.where('owner').equals(owner).toArray();
  return rows.sort((a, b) => (a.seq ?? -1) - (b.seq ?? -1) || a.createdAt - b.createdAt);
}

const TABLES = (db: LabDatabase) => [db.outbox, db.lineItems, db.orders];


async function recordSuccess(db: LabDatabase, owner: string, row: OutboxEntry, entry: ReadEntry, outcome: SendOutcome, countApplied: () => void): Promise<void> {
  await db.transaction('rw', TABLES(db), async () => {
    // Counted inside the transaction: a read of the order that checks the count inside its own
    // transaction (refreshOrderWith) is then either wholly before this one or sees the count move.
    countApplied();
    // The row goes in the same transaction as the answer is written: a crash before it commits
    // leaves the row, and the next try is a replay with the same key.
    await db.outbox.delete(row.id);
    if (outcome.removed) await db.lineItems.bulkDelete(outcome.removed);
    if (outcome.order) await applyFullOrder(db, owner, outcome.order);
    if (outcome.lineItems) await applyLineItems(db, owner, entry.payload.orderGuid, outcome.lineItems, outcome.orderAttributes);
    await settlePending(db, owner, entryLineItemGuids(entry));
    await stampSent(db, entry.payload.orderGuid);
  });
}

async function recordRefusal(db: LabDatabase, owner: string, row: OutboxEntry, entry: ReadEntry, f: CallFailure): Promise<void> {
  const text = refusalText(f, entry.name);
  const gone = entry.name !== 'addLineItems' && isGone(f);
  await db.transaction('rw', TABLES(db), async () => {
    await db.outbox.delete(row.id);
    for (const guid of entryLineItemGuids(entry)) {
      const item = await db.lineItems.get(guid);
      if (!item) continue;
      // A refused delete shows the item again, as the lab still has it.
      const shown: LineItemRow = entry.name === 'deleteLineItem' && item.confirmed ? { ...item, ...item.confirmed } : item;
      // The lab has no copy of a line item it no longer has: dismissing the notice then removes
      // it from the device instead of putting back the lab's last word, which is out of date.
      const confirmed = gone ? null : shown.confirmed;
      await db.lineItems.put({ ...shown, confirmed, deleted: 0, refusal: text, gone });
    }
    await settlePending(db, owner, entryLineItemGuids(entry));
    await stampSent(db, entry.payload.orderGuid);
  });
}

/**
 * The first row a handler can read, read alone: a long outbox is not parsed whole on every pass.
 * A row no handler can read (another version's, or written by hand) is never sent as something
 * it is not; it stays, counted by the sync indicator, and does not hold up the rest.
 */
function firstReadable(rows: OutboxEntry[]): { row: OutboxEntry; entry: ReadEntry } | null {
  for (const row of rows) {
    const entry = readEntry(row.name, row.payload);
    if (entry) return { row, entry };
  }
  return null;
}

async function drainLocked(deps: DrainDeps): Promise<DrainResult> {
  const { db, owner, calls } = deps;
  const now = deps.now ?? Date.now;
  let sent = 0;
  for (;;) {
    const next = firstReadable(await ownerOutbox(db, owner));
    if (!next) return { status: 'done', sent };
    const { row, entry } = next;
    if (row.notBefore !== undefined && row.notBefore > now()) return { status: 'waiting', sent, retryAt: row.notBefore };

    let key = row.idempotencyKey;
    if (!key) {
      // Stored before the first try, so every later try of this change carries the same key.
      key = newId();
      await db.outbox.update(row.id, { idempotencyKey: key });
    }
    let outcome: SendOutcome;
    try {
      outcome = await sendOrRead(entry, calls, key);
    } catch (err) {
      const f = asFailure(err);
      if (f && entry.handler.alreadyDone?.(f.status)) {
        outcome = { removed: entryLineItemGuids(entry) };
      } else if (f?.kind === 'network') {
        await db.outbox.update(row.id, { lastError: f.message || 'No response' });
        return { status: 'offline', sent };
      } else if (f && f.status === 401) {
        return { status: 'unauthorized', sent };
      } else if (f && !isTransient(f) && f.status !== null && f.status >= 400 && f.status < 500) {
        await recordRefusal(db, owner, row, entry, f);
        continue;
      } else {
        const attempts = (row.attempts ?? 0) + 1;
        const retryAt = now() + backoffMs(attempts, deps.random);
        const lastError = f ? `${f.status ?? ''} ${f.className ?? ''} ${f.message}`.trim() : String(err);
        await db.outbox.update(row.id, { attempts, notBefore: retryAt, lastError });
        return { status: 'waiting', sent, retryAt };
      }
    }
    await recordSuccess(db, owner, row, entry, outcome, deps.countApplied ?? countAppliedSend);
    sent += 1;
  }
}

// One drain at a time across the page's tabs and the service worker (Web Locks); where there is
// no such API (Node in tests), one at a time within this context.
const LOCK_NAME = 'print-lab-outbox-drain';
let runningHere = false;

interface LockManagerLike {
  request<T>(name: string, options: { ifAvailable: boolean }, callback: (lock: unknown) => Promise<T>): Promise<T>;
}

export async function drainOutbox(deps: DrainDeps): Promise<DrainResult> {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  if (runningHere) return { status: 'busy', sent: 0 };
  runningHere = true;
  try {
    if (!locks) return await drainLocked(deps);
    return await locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => (lock ? drainLocked(deps) : { status: 'busy', sent: 0 }));
  } finally {
    runningHere = false;
  }
}
