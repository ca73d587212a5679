import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
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
  408: 'RequestTimeout',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  414: 'UriTooLong',
  415: 'UnsupportedMediaType',
  416: 'RangeNotSatisfiable',
  429: 'TooManyRequests',
  431: 'RequestHeaderFieldsTooLarge',
};

// Path parameters are guids (36 characters); Fastify's default of 100 leaves room for any id we
// make. Longer ones are answered 414 by frameworkErrors. Storage keys are a wildcard, which this
// does not limit.
export const MAX_PARAM_LENGTH = 100;

/**
 * Failures of the router, before any route or hook runs (Fastify's `frameworkErrors`): a
 * malformed percent-encoding, a path parameter longer than `maxParamLength`.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const status = tooLong ? 414 : err.code === 'FST_ERR_ASYNC_CONSTRAINT' ? 500 : 400;
  const message = tooLong ? 'This address is too long: no id of ours is that long.' : status === 500 ? 'Something went wrong on our side. Please try again.' : 'This address is not valid.';
  const detail = tooLong
    ? `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`
    : status === 500
      ? `The route constraint failed (request ${request.id}).`
      : 'The request path has a malformed percent-encoding.';
  if (status === 500) request.log.error({ err }, 'router failed');
  else request.log.info({ code: err.code }, 'address refused by the router');
  void reply
    .code(status)
    .header('x-content-type-options', 'nosniff')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(errorBody(status, CLASS_BY_STATUS[status] ?? 'InternalServerError', message, detail)));
}

/**
 * Requests Node's HTTP parser refuses (a malformed header, headers too large, a request that
 * never finished): answered on the socket with the error body instead of Fastify's own.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message =
    status === 408 ? 'The request took too long to arrive. Please try again.' : status === 431 ? 'The request headers are too large.' : 'The request is not valid HTTP.';
  const body = JSON.stringify(errorBody(status, CLASS_BY_STATUS[status] ?? 'BadRequest', message, `${err.code ?? 'client error'}: the HTTP request could not be parsed.`));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** Every error, unknown route and crash answers with the error body; no stack trace leaves the server. */
export function registerErrorHandling(
  app: FastifyInstance,
  /** Server faults (5xx) go here as well as to the log. */
  reporter: ErrorReporter,
  /** Answers a screen path that is no file with the app's index.html; absent when no client is built. */
  spaFallback?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined,
): void {
  // While the server drains for a restart, requests still arriving on open connections are
  // turned away with the error body (Fastify's own 503 is switched off: return503OnClosing).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    done(new HttpError(503, 'ServiceUnavailable', 'The lab is restarting. Please try again in a moment.'));
  });

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
