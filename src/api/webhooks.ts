import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { newId } from '../client-rules/ids.ts';
import { call } from './call.ts';

/** Partner webhooks on /account (src/contract/webhooks.ts). */
export type Webhook = AnswerOf<Contract['GET /webhooks']>['data'][number];
export type WebhookDelivery = AnswerOf<Contract['GET /webhooks/:guid/deliveries']>['data'][number];

export const listWebhooks = () => call('GET /webhooks', {});
/**
 * Registers a URL. The caller keeps `idempotencyKey` for one registration: sent again after an
 * answer that never came (or a second click), it gets the same webhook and secret back instead of
 * making a second one.
 */
export const registerWebhook = (url: string, idempotencyKey: string) => call('POST /webhooks', { body: { url } }, { idempotencyKey });
export const removeWebhook = (guid: string) => call('DELETE /webhooks/:guid', { params: { guid } }, { idempotencyKey: newId() });
export const webhookDeliveries = (guid: string) => call('GET /webhooks/:guid/deliveries', { params: { guid } });
export const resendDelivery = (guid: string) => call('POST /webhook_deliveries/:guid/resend', { params: { guid } }, { idempotencyKey: newId() });
