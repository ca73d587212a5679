/** The photographers list, the admin's edits, log in as, and API invoices (docs/api.md §6). */
import { API, routePath } from '../domain/paths.ts';
import type { SessionAnswer } from '../domain/wire.ts';
import { apiRequest } from './client.ts';

export interface PhotographerAttributes {
  guid: string;
  first_name: string;
  last_name: string;
  email: string;
  business_name: string;
  user_approved: boolean;
  credit_available: number;
  created_at: string;
  order_count: number;
}

export interface PhotographerList {
  data: { id: string; type: 'photographer'; attributes: PhotographerAttributes }[];
  meta: { total: number; per_page: number; next_cursor: string | null };
}

/** A page of photographers; `search` (from 3 characters) over name, business and email. */
export function getPhotographers(opts: { search?: string; cursor?: string | null; signal?: AbortSignal } = {}) {
  const query = new URLSearchParams();
  if (opts.search) query.set('search', opts.search);
  if (opts.cursor) query.set('cursor', opts.cursor);
  const qs = query.toString();
  return apiRequest<PhotographerList>('GET', qs ? `${API.photographers}?${qs}` : API.photographers, opts.signal ? { signal: opts.signal } : {});
}

export type PhotographerEdit =
  | { type: 'email'; value: string }
  | { type: 'password'; value: string; password_confirmation: string }
  | { type: 'credit'; value: number }
  | { type: 'status'; value: 'approved' | 'not_approved' };

/** PATCH /users/:guid, one field per update (docs/orders.md §5); answers the photographer as now stored. */
export const updatePhotographer = (guid: string, edit: PhotographerEdit) =>
  apiRequest<{ data: { attributes: PhotographerAttributes } }>('PATCH', routePath(API.user, { guid }), { body: edit, idempotencyKey: crypto.randomUUID() });

/** POST /login_as_user: a session of the photographer, recorded as the admin's. */
export const loginAsUser = (email: string) => apiRequest<SessionAnswer>('POST', API.loginAsUser, { body: { email } });

export interface ApiInvoiceMonth {
  month: string;
  orders: number;
  total: number;
}

/** GET /api_invoices: paid API orders by month with totals. */
export const getApiInvoices = (signal?: AbortSignal) => apiRequest<{ data: ApiInvoiceMonth[] }>('GET', API.apiInvoices, signal ? { signal } : {});
