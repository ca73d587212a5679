import { API } from '../domain/paths.ts';
import { apiRequest } from './client.ts';
import type { SessionAnswer } from './session.ts';

type Success = { success: true };

export const forgotPassword = (email: string) => apiRequest<Success>('POST', API.forgotPassword, { body: { email } });

/** Resolves true when the token is valid for the email, false when the server says it is not (404). */
export async function resetTokenValid(email: string, token: string): Promise<boolean> {
  try {
    await apiRequest<Success>('POST', API.validateChallengeToken, { body: { email, challenge_token: token }, auth: false });
    return true;
  } catch (err) {
    if ((err as { status?: number }).status === 404) return false;
    throw err;
  }
}

export const resetPassword = (body: { email: string; challenge_token: string; password: string; password_confirmation: string }) =>
  apiRequest<SessionAnswer>('POST', API.resetPassword, { body, auth: false });
