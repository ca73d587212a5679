/**
 * The request function of the service worker's outbox drain (Background Sync): what apiRequest
 * (src/api/client.ts) does for the page, without the page's session store, which lives in local
 * storage that a worker cannot read. The token comes from the syncCredentials table.
 */
import type { ErrorBody } from '../api/errors.ts';
import type { CallOptions, Requester, RequestMethod } from '../api/line-item-calls.ts';
import { API_PREFIX } from '../domain/paths.ts';

/** A failed call, shaped like ApiError (src/api/errors.ts) for the drain. */
export class WorkerCallError extends Error {
  constructor(
    readonly kind: 'server' | 'http' | 'network',
    message: string,
    readonly status: number | null = null,
    readonly className: string | null = null,
  ) {
    super(message);
    this.name = 'WorkerCallError';
  }
}

/** An answer that may be the error body (src/api/errors.ts), every part of it unsure. */
type ErrorBodyLike = { error?: Partial<ErrorBody['error']> };

export function tokenRequester(token: string, fetchFn: typeof fetch = (input, init) => fetch(input, init)): Requester {
  return async <T>(method: RequestMethod, path: string, opts: CallOptions = {}): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json', token };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    let response: Response;
    try {
      response = await fetchFn(`${API_PREFIX}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? null : JSON.stringify(opts.body),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    } catch (err) {
      throw new WorkerCallError('network', err instanceof Error ? err.message : 'No response');
    }
    const text = await response.text();
    let payload: unknown = null;
    try {
      payload = text ? JSON.parse(text) : null;
    } catch {
      payload = null;
    }
    if (!response.ok) {
      const e = (payload as ErrorBodyLike | null)?.error;
      if (e?.class_name) {
        throw new WorkerCallError('server', e.user_message?.message ?? e.developer_message ?? '', e.status ?? response.status, e.class_name);
      }
      throw new WorkerCallError('http', `HTTP ${response.status}`, response.status);
    }
    return payload as T;
  };
}
