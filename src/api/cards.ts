import { API } from '../domain/paths.ts';
import type { Profile } from './account.ts';
import { apiRequest } from './client.ts';

export const getPaymentsConfig = () => apiRequest<{ provider: 'sandbox' | 'stripe'; publishable_key: string | null }>('GET', API.paymentsConfig);

/** The sandbox provider's TEST MODE tokenization (stands where Stripe.js would call Stripe). */
export const mintSandboxToken = (card: { number: string; exp_month: number; exp_year: number; cvc: string }) =>
  apiRequest<{ id: string; brand: string; last4: string }>('POST', API.sandboxTokens, { body: card, auth: false });

export const createCard = (tokenId: string) => apiRequest<Profile>('POST', API.createCard, { body: { token_id: tokenId } });

export const makePrimaryCard = (id: string) => apiRequest<Profile>('POST', API.updateDefaultCard, { body: { make_primary: id } });

export const removeCard = (id: string) => apiRequest<Profile>('POST', API.removeCard, { body: { selected_item: id } });
