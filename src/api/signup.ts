import { API, routePath } from '../domain/paths.ts';
import { apiRequest } from './client.ts';
import type { SessionAnswer } from './session.ts';

type Success = { success: true };

export interface SignUpForm {
  email: string;
  first_name: string;
  last_name: string;
  website: string;
  password: string;
  password_confirmation: string;
}

export const signUp = (form: SignUpForm) => apiRequest<SessionAnswer>('POST', API.users, { body: form, auth: false });

/** Resolves true when the email has an account, false when it has none (404). */
export async function emailHasAccount(email: string): Promise<boolean> {
  try {
    await apiRequest<Success>('POST', API.checkForEmail, { body: { email }, auth: false });
    return true;
  } catch (err) {
    if ((err as { status?: number }).status === 404) return false;
    throw err;
  }
}

/** Resolves true when the referral code belongs to a photographer (no token is sent). */
export async function referralCodeExists(code: string): Promise<boolean> {
  try {
    await apiRequest<Success>('POST', API.checkReferralCode, { body: { code }, auth: false });
    return true;
  } catch (err) {
    if ((err as { status?: number }).status === 404) return false;
    throw err;
  }
}

export const updateNewUser = (body: { code: string } | { tn_business: boolean }) => apiRequest<Success>('PATCH', API.updateNewUser, { body });

export const updateReferralCode = (guid: string, referralCode: string) =>
  apiRequest<{ user: { guid: string; referral_code: string; referred_users: number } }>('PATCH', routePath(API.user, { guid }), {
    body: { referral_code: referralCode },
  });
