import type { InputOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { call } from './call.ts';
import { lookupFound } from './lookup.ts';

/** What step 1 of sign-up sends. */
export type SignUpForm = InputOf<Contract['POST /users']>['body'];

export const signUp = (form: SignUpForm) => call('POST /users', { body: form }, { auth: false });

/** Resolves true when the email has an account, false when it has none (404). */
export const emailHasAccount = (email: string) => lookupFound(call('POST /check_for_email', { body: { email } }, { auth: false }));

/** Resolves true when the referral code belongs to a photographer (no token is sent). */
export const referralCodeExists = (code: string) => lookupFound(call('POST /check_referral_code', { body: { code } }, { auth: false }));

export const updateNewUser = (body: InputOf<Contract['PATCH /update_new_user']>['body']) => call('PATCH /update_new_user', { body });

/** Sets the own referral code; answers the user with it. */
export async function updateReferralCode(guid: string, referralCode: string) {
  const answer = await call('PATCH /users/:guid', { params: { guid }, body: { referral_code: referralCode } });
  // The user form of the three answers of PATCH /users/:guid: the one a referral code gets.
  return answer as Exclude<typeof answer, { cards: unknown } | { data: unknown }>;
}
