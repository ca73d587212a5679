import type { InputOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { call } from './call.ts';

export const getPaymentsConfig = () => call('GET /payments/config', {});

/** The sandbox provider's TEST MODE tokenization (stands where Stripe.js would call Stripe). */
export const mintSandboxToken = (card: InputOf<Contract['POST /sandbox/tokens']>['body']) => call('POST /sandbox/tokens', { body: card }, { auth: false });

export const createCard = (tokenId: string) => call('POST /accounts/create_card', { body: { token_id: tokenId } });

export const makePrimaryCard = (id: string) => call('POST /accounts/update_default_card', { body: { make_primary: id } });

export const removeCard = (id: string) => call('POST /accounts/remove_card', { body: { selected_item: id } });
