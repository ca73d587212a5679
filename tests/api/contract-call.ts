import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../server/app.ts';
import type { AnswerOf, InputOf, Method } from '../../src/contract/endpoint.ts';
import type { CallName, Contract } from '../../src/contract/index.ts';
import { API_PREFIX, routePath } from '../../src/domain/paths.ts';

/** An answer of the lab through `inject`, with the body typed by the contract when it succeeded. */
export interface CallAnswer<N extends CallName> {
  status: number;
  response: LightMyRequestResponse;
  /** The parsed body: the endpoint's answer on a success, the error body otherwise. */
  json(): AnswerOf<Contract[N]>;
}

/**
 * Calls one endpoint of the contract by the same name the page uses (src/api/call.ts), through
 * `inject`: the API tests and the page name a call the same way, and a renamed or removed endpoint
 * fails to compile in both. Hostile tests that send what no schema allows keep using `inject`.
 */
export async function callApi<N extends CallName>(
  app: App,
  name: N,
  input: InputOf<Contract[N]>,
  /** remoteAddress: the caller's address, for the per-address limits (sign-in, sign-up). */
  options: { token?: string; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<CallAnswer<N>> {
  const space = name.indexOf(' ');
  const method = name.slice(0, space) as Method;
  const { params, query, body } = input as { params?: Record<string, string | number>; query?: Record<string, string>; body?: object };
  const response = await app.inject({
    method,
    url: `${API_PREFIX}${routePath(name.slice(space + 1), params ?? {})}`,
    ...(query ? { query } : {}),
    ...(body === undefined ? {} : { payload: body }),
    headers: { ...(options.token ? { token: options.token } : {}), ...options.headers },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
  return { status: response.statusCode, response, json: () => response.json() };
}
