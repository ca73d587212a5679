import type { StatusMailStep } from '../domain/status-mails.ts';
import { call } from './call.ts';

/** The order status mails' switches on /account (src/contract/status-mails.ts). */
export const getStatusMails = () => call('GET /accounts/status_mails', {});
export const setStatusMail = (step: StatusMailStep, on: boolean) => call('PATCH /accounts/status_mails', { body: { step, on } });
