import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { call } from './call.ts';

/** Partner webhooks on /account (src/contract/webhooks.ts). */
export type Webhook = AnswerOf<Contract['GET /webhooks']>['data'][number];
export type WebhookDelivery = AnswerOf<Contract['GET /webhooks/:guid/deliveries']>['data'][number];

export const listWebhooks = () => call('GET /webhooks', {});
export const registerWebhook = (url: string) => call('POST /webhooks', { body: { url } });
export const removeWebhook = (guid: string) => call('DELETE /webhooks/:guid', { params: { guid } });
export const webhookDeliveries = (guid: string) => call('GET /webhooks/:guid/deliveries', { params: { guid } });
export const resendDelivery = (guid: string) => call('POST /webhook_deliveries/:guid/resend', { params: { guid } });
