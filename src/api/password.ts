import type { InputOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { call } from './call.ts';
import { lookupFound } from './lookup.ts';

export const forgotPassword = (email: string) => call('POST /forgot_password', { body: { email } });

/** Resolves true when the token is valid for the email, false when the server says it is not (404). */
export const resetTokenValid = (email: string, token: string) => lookupFound(call('POST /validate_challenge_token', { body: { email, challenge_token: token } }, { auth: false }));

export const resetPassword = (body: InputOf<Contract['POST /reset_password']>['body']) => call('POST /reset_password', { body }, { auth: false });
