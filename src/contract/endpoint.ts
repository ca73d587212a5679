import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One call of the lab API, written once: the server registers its route from it
 * (server/http/contract-route.ts), the API document is generated from that route, and the page's
 * typed calls (src/api/call.ts) take their input and answer types from it.
 */
export interface Endpoint {
  readonly method: Method;
  /** Below the API prefix, with `:name` for each path parameter (the router's syntax). */
  readonly path: string;
  /** The API document's grouping. */
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description?: string;
  /** true: answered without a session (sign-in, sign-up, status). */
  readonly public?: boolean;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** Every answer by status: the success answer and, for each error status, the error body. */
  readonly answers: { readonly [status: number]: z.ZodType };
}

/** Keeps the literal method and path of a definition, which the call names are made of. */
export const endpoint = <const E extends Endpoint>(definition: E): E => definition;

/** The statuses of a success; an endpoint has one. */
type SuccessStatus = 200 | 201 | 202 | 204;

/** What a call answers when it succeeds, as the page receives it (JSON of the schema's output). */
export type AnswerOf<E extends Endpoint> = z.output<E['answers'][Extract<keyof E['answers'], SuccessStatus>]>;

type Part<E extends Endpoint, K extends 'params' | 'query' | 'body'> = E[K] extends z.ZodType ? { [P in K]: z.input<E[K]> } : { [P in K]?: never };

/** What the caller sends: the path parameters, the query and the body the schemas take. */
export type InputOf<E extends Endpoint> = Part<E, 'params'> & Part<E, 'query'> & Part<E, 'body'>;

/** A resource's endpoints by the names the page calls them: `GET /lab_orders/:guid`. */
export type CallTable<T> = {
  [K in keyof T as T[K] extends Endpoint ? `${T[K]['method']} ${T[K]['path']}` : never]: T[K];
};
