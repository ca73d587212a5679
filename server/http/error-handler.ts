import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorReporter } from '../adapters/errors/error-reporter.ts';
import { HttpError, errorBody } from './errors.ts';
import { API_PREFIX } from '../../src/domain/paths.ts';

/** Messages for Fastify's own failures, in words a photographer can act on. */
const FASTIFY_ERRORS: Record<string, { className: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { className: 'BadRequest', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { className: 'BadRequest', message: 'The request body is empty but should be JSON.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { className: 'PayloadTooLarge', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { className: 'UnsupportedMediaType', message: 'Send the request body as JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { className: 'BadRequest', message: 'The request body length is wrong.' },
};

const CLASS_BY_STATUS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  416: 'RangeNotSatisfiable',
  429: 'TooManyRequests',
};

/** Every error, unknown route and crash answers with the error body; no stack trace leaves the server. */
export function registerErrorHandling(
  app: FastifyInstance,
  /** Server faults (5xx) go here as well as to the log. */
  reporter: ErrorReporter,
  /** Answers a screen path that is no file with the app's index.html; absent when no client is built. */
  spaFallback?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined,
): void {
  const report = (err: unknown, request: FastifyRequest) =>
    reporter.capture(err, {
      userGuid: request.actor?.user.guid,
      requestId: String(request.id),
      method: request.method,
      // The route's pattern, not the URL: ids and query strings stay out of reports.
      route: request.routeOptions.url ?? 'unknown route',
    });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      if (err.status >= 500) report(err, request);
      return reply.code(err.status).send(err.toBody());
    }

    if (hasZodFastifySchemaValidationErrors(err)) {
      const lines = err.validation.map((v) => {
        const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return field ? `${field}: ${v.message}` : String(v.message);
      });
      // Schemas give fields a user-facing message (a sentence ending in a full stop); zod's own
      // messages are shown with the field they are about.
      const first = err.validation[0];
      const userMessage = first?.message?.endsWith('.') ? first.message : (lines[0] ?? 'The request is not valid.');
      return reply.code(422).send(errorBody(422, 'ValidationError', userMessage, lines.join('; '), lines));
    }

    const known = err.code ? FASTIFY_ERRORS[err.code] : undefined;
    if (known) return reply.code(err.statusCode ?? 400).send(errorBody(err.statusCode ?? 400, known.className, known.message));

    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500 && !isResponseSerializationError(err)) {
      return reply.code(status).send(errorBody(status, CLASS_BY_STATUS[status] ?? 'BadRequest', err.message));
    }

    request.log.error({ err }, 'request failed');
    report(err, request);
    return reply
      .code(500)
      .send(
        errorBody(500, 'InternalServerError', 'Something went wrong on our side. Please try again.', `Unexpected server error (request ${request.id}).`),
      );
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith(API_PREFIX)) {
      return reply
        .code(404)
        .send(errorBody(404, 'NotFound', 'This page or action does not exist.', `No route for ${request.method} ${path}.`));
    }
    return spaFallback?.(request, reply) ?? reply.code(404).send(errorBody(404, 'NotFound', 'This page does not exist.', `No file at ${path}.`));
  });
}
