import type { CallName, Contract } from '../contract/index.ts';
import type { AnswerOf, InputOf, Method } from '../contract/endpoint.ts';
import { routePath } from '../domain/paths.ts';

export interface CallOptions {
  body?: unknown;
  /** false for calls made before sign-in: no token header (the page's client, src/api/client.ts). */
  auth?: boolean;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * How a call reaches the lab: the page's HTTP client (src/api/client.ts apiRequest) or the service
 * worker's, which has no local storage and so cannot load that client (src/offline/sw-request.ts).
 */
export type Requester = <T>(method: Method, path: string, opts?: CallOptions) => Promise<T>;

/** A call of the contract by its name, as the page and the service worker make it (src/api/call.ts). */
export type TypedCall = <N extends CallName>(name: N, input: InputOf<Contract[N]>, options?: Omit<CallOptions, 'body'>) => Promise<AnswerOf<Contract[N]>>;

/**
 * Calls of the contract over one requester. The name is checked against the contract when the
 * code is compiled; at run time it is only split into the method and the path, so no schema is
 * ever loaded.
 */
export function callsThrough(request: Requester): TypedCall {
  return (name, input, options = {}) => {
    const space = name.indexOf(' ');
    const method = name.slice(0, space) as Method;
    const { params, query, body } = input as { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown };
    const path = routePath(name.slice(space + 1), params ?? {}) + queryString(query);
    return request(method, path, body === undefined ? options : { ...options, body });
  };
}

/** `?a=1&b=x` from the query's defined values; '' when there are none. */
function queryString(query: Record<string, unknown> = {}): string {
  const pairs = Object.entries(query).filter(([, value]) => value !== undefined && value !== null);
  if (pairs.length === 0) return '';
  return `?${new URLSearchParams(pairs.map(([key, value]) => [key, String(value)])).toString()}`;
}
