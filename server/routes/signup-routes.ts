import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import type { ServerDeps } from '../deps.ts';
import { confirmCertificate } from '../services/certificate-service.ts';
import { checkForEmail, checkReferralCode, signUp, updateNewUser } from '../services/signup-service.ts';
import { newPassword, sessionAnswerSchema, successSchema } from '../../src/contract/shapes.ts';
import { errorAnswers } from '../http/errors.ts';

const email = z.email({ error: 'Enter a valid email address.' }).max(320);

export const signupRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Lookups that reveal whether an account or code exists (LOOKUP_RATE_LIMIT a minute).
    // Public calls (anyone may sign up or look a code up), limited per address.
    const lookupLimit = { public: true as const, rateLimit: { max: deps.config.lookupRateLimit, timeWindow: 60_000 } };

    app.post(
      API.users,
      {
        schema: {
          tags: ['sign-up'],
          summary: 'Sign up (step 1): create the account and sign in',
          body: z.object({
            email,
            first_name: z.string().trim().min(1, 'Enter your first name.').max(100),
            last_name: z.string().trim().min(1, 'Enter your last name.').max(100),
            website: z.string().trim().max(500).optional(),
            password: newPassword,
            password_confirmation: z.string().max(1000),
          }),
          response: { 200: sessionAnswerSchema },
        },
        config: { idempotency: false, ...lookupLimit },
      },
      (request) => signUp(deps, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }),
    );

    app.post(
      API.checkForEmail,
      {
        schema: { tags: ['sign-up'], summary: 'Success when the email has an account', body: z.object({ email: z.string().max(320) }), response: { ...errorAnswers(404), 200: successSchema } },
        config: lookupLimit,
      },
      async (request) => {
        await checkForEmail(deps, request.body.email);
        return { success: true as const };
      },
    );

    app.post(
      API.checkReferralCode,
      {
        schema: { tags: ['sign-up'], summary: 'Success when the referral code exists', body: z.object({ code: z.string().max(100) }), response: { ...errorAnswers(404), 200: successSchema } },
        config: lookupLimit,
      },
      async (request) => {
        await checkReferralCode(deps, request.body.code);
        return { success: true as const };
      },
    );

    app.patch(
      API.updateNewUser,
      {
        schema: {
          tags: ['sign-up'],
          summary: 'Sign up (steps 2 and 3): the referral code, or the Tennessee answer',
          // One answer per call, as the two screens send them: both at once could save the
          // referrer and then refuse the Tennessee answer, half-applied.
          body: z.union(
            [z.strictObject({ code: z.string().min(1, 'Enter the referral code.').max(100) }), z.strictObject({ tn_business: z.boolean() })],
            { error: 'Send one answer at a time: the referral code, or whether the business is in Tennessee.' },
          ),
          response: { 200: successSchema },
        },
      },
      (request) => updateNewUser(deps, request.actor, request.body),
    );

    app.post(
      API.blanketCertificate,
      {
        schema: {
          tags: ['uploads'],
          summary: 'The certificate upload is done: check it is a PDF and keep it',
          body: z.object({ key: z.string().min(1).max(500) }),
          response: { ...errorAnswers(404), 200: z.object({ blanket_certificate_of_resale_link: z.string() }) },
        },
      },
      (request) => confirmCertificate(deps, request.actor, request.body),
    );
  };
