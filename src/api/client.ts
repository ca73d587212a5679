import { API_PREFIX } from '../domain/paths.ts';
import { reportError } from './error-reports.ts';
import { ApiError, isErrorBody } from './errors.ts';
import { takeEarlyGet } from './early-get.ts';
import { REQUEST_TIMEOUT_MS } from './request-timeout.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  /** false for calls made before sign-in (login, referral checks): no token header. */
  auth?: boolean;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** Told which token was refused, so that only the session it belongs to ends (session.ts). */
let onUnauthorized: ((refusedToken: string) => void) | null = null;
/**
 * Where calls find their token: the app shell names the page's session (src/main.tsx); the upload
 * worker, which runs this client without local storage, the token the page hands it
 * (src/upload/worker/send.ts). None until then: no token header.
 */
let tokenSource: () => string | null = () => null;

export function setTokenSource(source: () => string | null): void {
  tokenSource = source;
}

/**
 * Told of every call's outcome: the answer (from the lab or the service worker's cache), or null
 * when none came. The connectivity store listens (src/offline/connectivity.ts): the client knows
 * nothing of it, so src/api stays below src/offline.
 */
export type CallOutcomeListener = (answer: Response | null) => void;
const outcomeListeners = new Set<CallOutcomeListener>();

/** Adds a listener of every call's outcome; returns the way to remove it. */
export function onCallOutcome(listener: CallOutcomeListener): () => void {
  outcomeListeners.add(listener);
  return () => outcomeListeners.delete(listener);
}

// Calls not yet answered, and who waits for there to be none (see whenNoCallInFlight).
let inFlight = 0;
const idleWaiters = new Set<() => void>();

/**
 * Resolves once no call of this client is waiting for its answer: the screen on show has its data.
 * Background work (offline copies, resumed uploads) waits for this so it never competes with it.
 */
export function whenNoCallInFlight(): Promise<void> {
  if (inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => idleWaiters.add(resolve));
}

function callEnded(): void {
  inFlight -= 1;
  if (inFlight > 0) return;
  for (const resolve of idleWaiters) resolve();
  idleWaiters.clear();
}

/** The app shell decides what a 401 does (sign out, go to /login with the notice). */
export function setUnauthorizedHandler(handler: (refusedToken: string) => void): void {
  onUnauthorized = handler;
}

/** A call made elsewhere with this page's token (the upload worker's) was answered 401. */
export function sessionRefusedElsewhere(refusedToken: string): void {
  onUnauthorized?.(refusedToken);
}

/**
 * The one HTTP client of the app: base path, `token` header, time-out, JSON, error normalisation
 * into ApiError, and the 401 rule. Screens never call fetch; they call the typed functions in
 * src/api, which call this.
 */
export async function apiRequest<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
  inFlight += 1;
  try {
    return await request<T>(method, path, opts);
  } finally {
    callEnded();
  }
}

async function request<T>(method: Method, path: string, opts: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = opts.auth === false ? null : tokenSource();
  if (token) headers.token = token;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;

  let response: Response;
  try {
    // The list's first page may have been asked for before the app's code arrived (early-get.ts).
    const early = method === 'GET' && !opts.signal && opts.auth !== false ? takeEarlyGet(path, token) : null;
    response = await (early ??
      fetch(`${API_PREFIX}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? null : JSON.stringify(opts.body),
        signal,
      }));
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    for (const listener of outcomeListeners) listener(null);
    throw new ApiError('network', err instanceof Error ? err.message : 'No response');
  }
  for (const listener of outcomeListeners) listener(response);

  const text = await response.text();
  let payload: unknown = null;
  if (text) {
    try {
      payload = JSON.parse(text);
    } catch {
      payload = null;
    }
  }
  if (!response.ok) {
    const error = isErrorBody(payload)
      ? ApiError.fromBody(payload, response.status)
      : new ApiError('http', `HTTP ${response.status}`, { status: response.status });
    // Any 401 on a signed-in call means the session has ended (docs/accounts.md §4).
    if (token && (response.status === 401 || error.status === 401)) onUnauthorized?.(token);
    // A fault of the lab's (or of a proxy before it) is reported from here, whoever shows it.
    if (response.status >= 500) reportError(error, { call: `${method} ${path.split('?')[0] ?? ''}`, status: String(response.status) });
    throw error;
  }
  return payload as T;
}
