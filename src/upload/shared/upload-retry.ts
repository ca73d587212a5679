/**
 * When and how a failed upload step is tried again. Full-jitter exponential backoff (AWS
 * architecture blog, "Exponential Backoff And Jitter"): each wait is uniform in
 * [0, min(cap, base·2^(attempt−1))], so many clients cut off together do not come back together.
 */

/** The first retry waits at most a second: a blip costs little. */
export const RETRY_BASE_MS = 1_000;
/** Never more than a minute between tries, so a link that returns is used soon. */
export const RETRY_CAP_MS = 60_000;
/**
 * Server errors (5xx, 429) on one file: after 8 tries in a row without progress (several minutes
 * with the waits) the file is marked failed and the user may retry it. Lost connections never
 * count: the queue waits for the lab instead (uploads must survive a train ride).
 */
export const MAX_SERVER_ATTEMPTS = 8;
/** Fresh URLs asked in a row for one file without a part getting through: more means a bug, not expiry. */
export const MAX_URL_RENEWALS = 3;

/** Wait before try number `attempt + 1` (attempt ≥ 1 failures so far), full jitter. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** A failed call as the queue sees it: the HTTP status (0: no answer) and the error body's class. */
export interface StepFailure {
  status: number;
  className?: string | null;
  message?: string | null;
}

/**
 * What to do about a failure:
 * - offline: no answer (connection lost, stalled): wait for the lab, try again, spend no attempt;
 * - expired: the signed URL is past its time: ask for fresh URLs, keep the parts sent;
 * - sealed: storage says the key is already confirmed: only the confirmation is left;
 * - gone: the server does not know the multipart upload any more: start the file again;
 * - transient: the server is busy or broken for now: back off and try again, counting attempts;
 * - rekey: the lab refuses the step's idempotency key as another sign-in's (the photographer signed
 *   out while the step's answer was on its way, and signed in again): the same step under a new key.
 *   The lab says so only once the first request has its answer (before, RequestInProgress), so the
 *   two never run at once; and it takes each photo once (by checksum), each upload once;
 * - busy: the lab is still working on this very request, sent again under the same idempotency
 *   key (a reloaded page or a closed laptop left the first one running): ask again in a moment,
 *   counting no attempt, since the first one will end with an answer (or be taken over);
 * - refused: the server will never take this file (not a photo, too large): REJECTED, its reason;
 * - fatal: anything else (order gone or not open, no rights): the file fails with the message.
 */
export type FailureAction = 'offline' | 'expired' | 'sealed' | 'gone' | 'transient' | 'busy' | 'rekey' | 'refused' | 'fatal';

/** Where the call went: the storage's signed URL, the fresh-part-URL call, or another API call. */
export type StepKind = 'storage' | 'renew' | 'api';

const EXPIRED = /expired/i;

export function classifyFailure(kind: StepKind, f: StepFailure): FailureAction {
  const { status } = f;
  // No answer; or the session ended (401): the app signs out, and the photo waits for its owner
  // to sign in again, as it waits for a connection. Neither is the photo's fault.
  if (status === 0 || (status === 401 && kind !== 'storage')) return 'offline';
  if (status === 408 || status === 425 || status === 429 || status >= 500) return 'transient';
  if (status === 409 && f.className === 'RequestInProgress') return 'busy';
  if (status === 409 && f.className === 'IdempotencyKeyReused' && kind !== 'storage') return 'rekey';
  if (status === 422 || status === 413) return 'refused';
  if (kind === 'storage') {
    // The local store answers SignatureExpired; S3 answers AccessDenied "Request has expired".
    if (status === 403 && (f.className === 'SignatureExpired' || EXPIRED.test(f.message ?? ''))) return 'expired';
    if (status === 409) return 'sealed';
    if (status === 404) return 'gone';
  }
  if (kind === 'renew' && status === 404) return 'gone';
  return 'fatal';
}
