/** The photographers list, the admin's edits, log in as, and API invoices (docs/api.md §6). */
import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { newId } from '../client-rules/ids.ts';
import { call } from './call.ts';

export type PhotographerList = AnswerOf<Contract['GET /photographers']>;

export type PhotographerAttributes = PhotographerList['data'][number]['attributes'];

/** A page of photographers; `search` (from 3 characters) over name, business and email. */
export function getPhotographers(opts: { search?: string; cursor?: string | null; signal?: AbortSignal } = {}) {
  const query = { ...(opts.search ? { search: opts.search } : {}), ...(opts.cursor ? { cursor: opts.cursor } : {}) };
  return call('GET /photographers', { query }, opts.signal ? { signal: opts.signal } : {});
}

export type PhotographerEdit =
  | { type: 'email'; value: string }
  | { type: 'password'; value: string; password_confirmation: string }
  | { type: 'credit'; value: number }
  | { type: 'status'; value: 'approved' | 'not_approved' };

/** PATCH /users/:guid, one field per update (docs/orders.md §5); answers the photographer as now stored. */
export async function updatePhotographer(guid: string, edit: PhotographerEdit) {
  const answer = await call('PATCH /users/:guid', { params: { guid }, body: edit }, { idempotencyKey: newId() });
  // The admin-edit form of the three answers of PATCH /users/:guid.
  return answer as Extract<typeof answer, { data: unknown }>;
}

/** POST /login_as_user: a session of the photographer, recorded as the admin's. */
export const loginAsUser = (email: string) => call('POST /login_as_user', { body: { email } });

export type ApiInvoiceMonth = AnswerOf<Contract['GET /api_invoices']>['data'][number];

/** GET /api_invoices: paid API orders by month with totals. */
export const getApiInvoices = (signal?: AbortSignal) => call('GET /api_invoices', {}, signal ? { signal } : {});
