/** Discount codes on the admin screen (issue 34): list with uses, create, pause, resume, expire. */
import { API, routePath } from '../domain/paths.ts';
import { apiRequest } from './client.ts';

export interface AdminDiscountCode {
  code: string;
  kind: 'percent' | 'amount';
  percent?: number;
  amount?: number;
  state: 'active' | 'paused' | 'expired' | 'used_up';
  paused: boolean;
  last_day: string | null;
  usage_limit: number | null;
  uses: { times: number; photographers: number; money_given: number };
}

export interface NewCodeForm {
  code: string;
  percent?: string;
  amount?: string;
  last_day?: string;
  usage_limit?: string;
}

export type CodeChange = { paused: boolean } | { expires: string };

export const getDiscountCodes = (signal?: AbortSignal) => apiRequest<{ data: AdminDiscountCode[] }>('GET', API.discountCodes, signal ? { signal } : {});

export const createDiscountCode = (form: NewCodeForm) => apiRequest<{ data: AdminDiscountCode }>('POST', API.discountCodes, { body: form, idempotencyKey: crypto.randomUUID() });

export const changeDiscountCode = (code: string, change: CodeChange) =>
  apiRequest<{ data: AdminDiscountCode }>('PATCH', routePath(API.discountCode, { code }), { body: change, idempotencyKey: crypto.randomUUID() });
