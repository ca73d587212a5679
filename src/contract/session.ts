import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';
import { sessionAnswerSchema, successSchema } from './shapes.ts';

const tags = ['session'];

/** Signing in and out (docs/accounts.md §4). */
export const sessionEndpoints = {
  login: endpoint({
    method: 'POST',
    path: '/login',
    tags,
    summary: 'Sign in',
    public: true,
    body: z.object({
      email: z.string().trim().min(1, 'Enter your email address.').max(320),
      password: z.string().min(1, 'Enter your password.').max(1000),
    }),
    answers: { ...errorAnswers(401), 200: sessionAnswerSchema },
  }),
  logout: endpoint({ method: 'DELETE', path: '/logout', tags, summary: 'End this session', answers: { 200: successSchema } }),
  logoutAllSessions: endpoint({ method: 'DELETE', path: '/logout_all_sessions', tags, summary: 'End every session of this user', answers: { 200: successSchema } }),
};

/** The answer of login, sign-up, reset_password and login_as_user. */
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;
