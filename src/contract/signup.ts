import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { newPassword, sessionAnswerSchema, successSchema } from './shapes.ts';

const tags = ['sign-up'];

/** Signing up in three steps, and the lookups its screens make (docs/accounts.md §3). */
export const signupEndpoints = {
  signUp: endpoint({
    method: 'POST',
    path: '/users',
    tags,
    summary: 'Sign up (step 1): create the account and sign in',
    public: true,
    body: z.object({
      email: z.email({ error: 'Enter a valid email address.' }).max(320),
      first_name: z.string().trim().min(1, 'Enter your first name.').max(100),
      last_name: z.string().trim().min(1, 'Enter your last name.').max(100),
      website: z.string().trim().max(500).optional(),
      password: newPassword,
      password_confirmation: z.string().max(1000),
    }),
    answers: { 200: sessionAnswerSchema },
  }),
  checkForEmail: endpoint({
    method: 'POST',
    path: '/check_for_email',
    tags,
    summary: 'Success when the email has an account',
    public: true,
    body: z.object({ email: z.string().max(320) }),
    answers: { ...errorAnswers(404), 200: successSchema },
  }),
  checkReferralCode: endpoint({
    method: 'POST',
    path: '/check_referral_code',
    tags,
    summary: 'Success when the referral code exists',
    public: true,
    body: z.object({ code: z.string().max(100) }),
    answers: { ...errorAnswers(404), 200: successSchema },
  }),
  updateNewUser: endpoint({
    method: 'PATCH',
    path: '/update_new_user',
    tags,
    summary: 'Sign up (steps 2 and 3): the referral code, or the Tennessee answer',
    // One answer per call, as the two screens send them: both at once could save the referrer and
    // then refuse the Tennessee answer, half-applied.
    body: z.union([z.strictObject({ code: z.string().min(1, 'Enter the referral code.').max(100) }), z.strictObject({ tn_business: z.boolean() })], {
      error: 'Send one answer at a time: the referral code, or whether the business is in Tennessee.',
    }),
    answers: { 200: successSchema },
  }),
};
