/** Discount codes on the admin screen (issue 34): list with uses, create, pause, resume, expire. */
import type { InputOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { newId } from '../client-rules/ids.ts';
import { call } from './call.ts';

export type { AdminDiscountCode } from '../contract/discount-codes.ts';

/** The new-code form as the screen holds it: the fields' text, read by the lab's rules. */
export interface NewCodeForm {
  code: string;
  percent?: string;
  amount?: string;
  last_day?: string;
  usage_limit?: string;
}

export type CodeChange = InputOf<Contract['PATCH /discount_codes/:code']>['body'];

export const getDiscountCodes = (signal?: AbortSignal) => call('GET /discount_codes', {}, signal ? { signal } : {});

export const createDiscountCode = (form: NewCodeForm) => call('POST /discount_codes', { body: form }, { idempotencyKey: newId() });

export const changeDiscountCode = (code: string, change: CodeChange) => call('PATCH /discount_codes/:code', { params: { code }, body: change }, { idempotencyKey: newId() });
