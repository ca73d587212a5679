import { API_PREFIX } from '../domain/paths.ts';
import { REQUEST_TIMEOUT_MS } from './request-timeout.ts';

// An early answer is used only this soon after it was asked for: it stands in for the app's own
// first call, not for one made later (which asks afresh).
const EARLY_FRESH_MS = 10_000;

let early: { path: string; token: string; at: number; response: Promise<Response> } | null = null;

/**
 * Sends a GET of the API before the app's code has arrived (src/app/early-list-page.ts), with
 * the headers the API client sends. The client takes its answer for its first identical call.
 */
export function startEarlyGet(path: string, token: string): void {
  const response = fetch(`${API_PREFIX}${path}`, {
    method: 'GET',
    headers: { accept: 'application/json', token },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  // The client reports a failure when it takes the answer; until then it is not unhandled.
  response.catch(() => undefined);
  early = { path, token, at: Date.now(), response };
}

/** The early answer to this exact call, once, while fresh; otherwise null (the client asks itself). */
export function takeEarlyGet(path: string, token: string | null, now = Date.now()): Promise<Response> | null {
  const taken = early;
  if (!taken || taken.path !== path || taken.token !== token) return null;
  early = null;
  return now - taken.at <= EARLY_FRESH_MS ? taken.response : null;
}
