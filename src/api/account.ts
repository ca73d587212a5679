import type { Profile } from '../contract/account.ts';
import type { AnswerOf, InputOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { call } from './call.ts';

export type { Profile };

export type AccountUser = Profile['user'];

/** A shop that asked to connect and waits for the photographer's CONFIRM. */
export type PendingShop = Profile['shop_connection']['pending'][number];

export type ReferralRow = AnswerOf<Contract['GET /accounts/referrals']>['data'][number];

export const getProfile = () => call('GET /profile', {});

/** The BASIC INFORMATION form of PATCH /users/:guid (the others: referral code, password, admin edit). */
type BasicInformation = Exclude<InputOf<Contract['PATCH /users/:guid']>['body'], { referral_code: string } | { password: string } | { type: string }>;

/** Changes BASIC INFORMATION; the lab answers this form with the profile. */
export const updateBasicInformation = async (guid: string, body: BasicInformation) => (await call('PATCH /users/:guid', { params: { guid }, body })) as Profile;

export const addAddress = (body: { street_address: string; city: string; state: string; zip: string }) => call('POST /addresses', { body });

export const makePrimaryAddress = (guid: string) => call('POST /accounts/update_default_address', { body: { make_primary: guid } });

export const removeAddress = (guid: string) => call('POST /accounts/remove_address', { body: { selected_item: guid } });

export const updateUserEmail = (email: string, password: string) => call('PATCH /update_user_email', { body: { email, password } });

export const getReferrals = () => call('GET /accounts/referrals', {});

export const getPhotographerCredit = (guid: string) => call('GET /photographers/:guid', { params: { guid } });

/** `shopifyQuery`: the page's query as Shopify opened it (its hmac proves the shop when the lab checks it). */
export const connectShop = (code: string, shop: string, shopifyQuery: string) =>
  call('POST /shop_connections', { body: { code, shop, ...(shopifyQuery ? { shopify_query: shopifyQuery } : {}) } }, { auth: false });

export const confirmShopConnection = (id: string) => call('POST /shop_connections/:id/confirm', { params: { id } });

export const declineShopConnection = (id: string) => call('DELETE /shop_connections/:id', { params: { id } });

export const generateTaxReport = (year: number) => call('POST /accounts/generate_tax_report', { body: { year } });
