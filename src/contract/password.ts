import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { newPassword, sessionAnswerSchema, successSchema } from './shapes.ts';

const tags = ['password'];
const email = z.string().max(320);
const challengeToken = z
  .string()
  .max(20)
  .regex(/^[A-Za-z0-9 ]*$/, 'The reset token has letters, digits and spaces only.');

/** Forgotten passwords: a token by mail, checked, then the new password (docs/accounts.md §4). */
export const passwordEndpoints = {
  forgotPassword: endpoint({
    method: 'POST',
    path: '/forgot_password',
    tags,
    summary: 'Mail a reset token',
    public: true,
    body: z.object({ email }),
    answers: { ...errorAnswers(404), 200: successSchema },
  }),
  validateChallengeToken: endpoint({
    method: 'POST',
    path: '/validate_challenge_token',
    tags,
    summary: 'Success when the reset token is valid for the email',
    public: true,
    body: z.object({ email, challenge_token: challengeToken }),
    answers: { ...errorAnswers(404), 200: successSchema },
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/reset_password',
    tags,
    summary: 'Set a new password with a valid reset token, and sign in',
    public: true,
    body: z.object({ email, challenge_token: challengeToken, password: newPassword, password_confirmation: z.string().max(1000) }),
    // 404: the token is wrong, used or expired (the same answer as validate_challenge_token).
    answers: { ...errorAnswers(404), 200: sessionAnswerSchema },
  }),
};
