import type { CallName, Contract } from '../contract/index.ts';
import type { AnswerOf, InputOf, Method } from '../contract/endpoint.ts';
import { routePath } from '../domain/paths.ts';
import { apiRequest, type RequestOptions } from './client.ts';

/**
 * Calls one endpoint of the contract by its name (`GET /lab_orders/:guid`), with the input its
 * schemas take and the answer they give. The name is checked against the contract when the code
 * is compiled; at run time it is only split into the method and the path, so the page never loads
 * a schema.
 */
export function call<N extends CallName>(name: N, input: InputOf<Contract[N]>, options: Omit<RequestOptions, 'body'> = {}): Promise<AnswerOf<Contract[N]>> {
  const space = name.indexOf(' ');
  const method = name.slice(0, space) as Method;
  const { params, query, body } = input as { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown };
  const path = routePath(name.slice(space + 1), params ?? {}) + queryString(query);
  return apiRequest(method, path, body === undefined ? options : { ...options, body });
}

/** `?a=1&b=x` from the query's defined values; '' when there are none. */
function queryString(query: Record<string, unknown> = {}): string {
  const pairs = Object.entries(query).filter(([, value]) => value !== undefined && value !== null);
  if (pairs.length === 0) return '';
  return `?${new URLSearchParams(pairs.map(([key, value]) => [key, String(value)])).toString()}`;
}
