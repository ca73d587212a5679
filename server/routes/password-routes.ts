import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { forgotPassword, resetPassword, validateChallengeToken } from '../services/password-reset-service.ts';
import { newPassword, sessionAnswerSchema, successSchema } from '../../src/contract/shapes.ts';
import { errorAnswers } from '../http/errors.ts';

const token = z
  .string()
  .max(20)
  .regex(/^[A-Za-z0-9 ]*$/, 'The reset token has letters, digits and spaces only.');

/** Forgotten passwords: a token by mail, checked, then the new password (docs/accounts.md §4). */
export const passwordRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Each of these reveals whether an account exists or lets a token be guessed: rate-limited.
    const limit = { public: true as const, rateLimit: { max: deps.config.lookupRateLimit, timeWindow: 60_000 } };

    app.post(
      API.forgotPassword,
      { schema: { tags: ['password'], summary: 'Mail a reset token', body: z.object({ email: z.string().max(320) }), response: { ...errorAnswers(404), 200: successSchema } }, config: limit },
      (request) => forgotPassword(deps, request.body.email),
    );

    app.post(
      API.validateChallengeToken,
      {
        schema: { tags: ['password'], summary: 'Success when the reset token is valid for the email', body: z.object({ email: z.string().max(320), challenge_token: token }), response: { ...errorAnswers(404), 200: successSchema } },
        config: limit,
      },
      (request) => validateChallengeToken(deps, request.body),
    );

    app.post(
      API.resetPassword,
      {
        schema: {
          tags: ['password'],
          summary: 'Set a new password with a valid reset token, and sign in',
          body: z.object({ email: z.string().max(320), challenge_token: token, password: newPassword, password_confirmation: z.string().max(1000) }),
          // 404: the token is wrong, used or expired (the same answer as validate_challenge_token).
          response: { ...errorAnswers(404), 200: sessionAnswerSchema },
        },
        config: { ...limit, idempotency: false },
      },
      (request) => resetPassword(deps, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }),
    );
  };
