import { z } from 'zod';
import { STATUS_MAIL_STEPS } from '../domain/status-mails.ts';
import { endpoint } from './endpoint.ts';

const tags = ['account'];

/** Each order status mail, on or off, for the signed-in account. */
const switchesSchema = z.object({ data: z.object(Object.fromEntries(STATUS_MAIL_STEPS.map((step) => [step, z.boolean()])) as Record<(typeof STATUS_MAIL_STEPS)[number], z.ZodBoolean>) });

/** The order status mails a photographer gets, and the switches for them on /account. */
export const statusMailEndpoints = {
  get: endpoint({
    method: 'GET',
    path: '/accounts/status_mails',
    tags,
    summary: 'Which order status mails you get (received, printing, shipped, delayed, cancelled, refunded)',
    answers: { 200: switchesSchema },
  }),
  change: endpoint({
    method: 'PATCH',
    path: '/accounts/status_mails',
    tags,
    summary: 'Turn one order status mail on or off',
    body: z.object({
      step: z.enum(STATUS_MAIL_STEPS, { error: `step is one of ${STATUS_MAIL_STEPS.join(', ')}.` }),
      on: z.boolean({ error: 'on is true or false.' }),
    }),
    answers: { 200: switchesSchema },
  }),
};
