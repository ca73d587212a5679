import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

/**
 * The one place that keeps secrets out of the logs (docs/lab-rules.md §6): tokens, passwords and their
 * hashes, reset codes, URL signatures, card data and the parameters of failed queries. Each is
 * blanked once, in the field where it can appear: request URLs and errors through the serializers
 * below, structured fields through pino's redaction paths, and free text (a message, a string
 * field of a logged object) through scrubText as it is logged. A finished line is not scanned
 * again: every request writes one, and a pass over each would cost more than the request.
 */

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

export const REDACTED = '[REDACTED]';

/** Fields whose value is a secret wherever they appear in a logged object. */
const SECRET_FIELDS = [
  'password',
  'password_confirmation',
  'current_password',
  'passwordHash',
  'password_hash',
  'token',
  'challenge_token',
  'token_id',
  'tokenHash',
  'secret',
  'number',
  'card_number',
  'cvc',
  'params',
  'authorization',
  'cookie',
];
// Fields are found this many levels into a logged object (e.g. req.body.password, err.cause.params).
const REDACT_DEPTH = 3;

/** pino redaction paths: the request's secret headers, and every secret field to REDACT_DEPTH. */
export const REDACT_PATHS: string[] = [
  'req.headers.token',
  'req.headers.authorization',
  'req.headers.cookie',
  ...SECRET_FIELDS.flatMap((field) => Array.from({ length: REDACT_DEPTH }, (_, depth) => [...Array<string>(depth).fill('*'), field].join('.'))),
];

/** Query parameters that carry a signature, a credential or a token: their values never reach a log. */
const SECRET_QUERY = /([?&](?:sig|signature|hmac|token|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token)=)[^&#\s"]*/gi;

/** A URL as it may be logged: the path and harmless parameters stay, secret values are blanked. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, `$1${REDACTED}`);
}

// An argon2 hash in its PHC form ($argon2id$v=19$m=…,t=…,p=…$salt$hash).
const ARGON2 = /\$argon2(?:id|i|d)\$(?:v=\d+\$)?(?:m=\d+,t=\d+,p=\d+)?(?:\$[\w+/.=-]*){0,2}/g;
// 13 to 19 digits, spaced or dashed as people type card numbers; not right after a digit, a
// quote-colon (a JSON number such as "time") or a letter.
const CARD_LIKE = /(?<![\w:.[,-])\d(?:[ -]?\d){12,18}(?![\w.])/g;
// A failed query's message ends with its parameters (drizzle: "Failed query: …\nparams: …"), up to
// the stack's first frame; the second form is the same inside a finished JSON line.
const QUERY_PARAMS = /\nparams: [\s\S]*?(?=\n\s+at |$)/g;
const QUERY_PARAMS_IN_JSON = /\\nparams: (?:\\.|[^"\\])*?(?=\\n\s+at |")/g;

/** Luhn's check: true for numbers that could be a card, so other long numbers stay readable. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Blanks what a secret looks like in free text: hashes, URL signatures, card numbers, query parameters. */
export function scrubText(text: string): string {
  return redactUrl(text)
    .replace(QUERY_PARAMS, `\nparams: ${REDACTED}`)
    .replace(QUERY_PARAMS_IN_JSON, `\\nparams: ${REDACTED}`)
    .replace(ARGON2, REDACTED)
    .replace(CARD_LIKE, (match) => (luhn(match.replace(/[ -]/g, '')) ? REDACTED : match));
}

// A database error's detail repeats the row's values ("Key (email)=(…)", "Failing row contains (…)").
const scrubDetail = (detail: string) => detail.replace(/=\(.*\)/s, `=(${REDACTED})`).replace(/row contains \(.*\)/s, `row contains (${REDACTED})`);
// Error properties that hold values rather than a description of what went wrong.
const ERROR_VALUE_FIELDS = new Set(['params', 'parameters', 'values', 'body', 'config', 'request', 'response', 'headers']);
// A cause chain deeper than this is cut (a driver error inside a query error is two).
const MAX_CAUSE_DEPTH = 3;

export interface SerializedError {
  [field: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** An error as it may be logged: type, message, stack, code and the like, never the values it carried. */
export function serializeError(err: unknown, depth = 0): SerializedError {
  if (!(err instanceof Error)) return { type: typeof err, message: scrubText(String(err)), stack: '' };
  const out: SerializedError = { type: err.constructor.name, message: scrubText(err.message), stack: scrubText(err.stack ?? '') };
  for (const [name, value] of Object.entries(err)) {
    if (name === 'cause') continue;
    if (ERROR_VALUE_FIELDS.has(name) || SECRET_FIELDS.includes(name)) out[name] = REDACTED;
    else if (name === 'detail' && typeof value === 'string') out[name] = scrubDetail(scrubText(value));
    else if (typeof value === 'string') out[name] = scrubText(value);
    else if (typeof value === 'number' || typeof value === 'boolean') out[name] = value;
  }
  if (err.cause !== undefined && depth < MAX_CAUSE_DEPTH) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

/** The text of an error for a plain console line (start-up, background jobs), scrubbed like the log. */
export function errorText(err: unknown): string {
  return scrubText(err instanceof Error ? err.message : String(err));
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

// Free text that holds none of these cannot hold a secret's shape (a URL's query, an argon2 hash,
// a card number, a failed query's parameters): most messages are a fixed sentence, and skip scrubText.
const MAY_HOLD_SECRET = /[\d$?&]|params: /;
const scrubbed = (text: string) => (MAY_HOLD_SECRET.test(text) ? scrubText(text) : text);

/** A logged object's own string fields, scrubbed (a copy, only when one changed); nested ones have the redaction paths. */
function scrubFields(fields: object): object {
  let copy: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    const clean = scrubbed(value);
    if (clean !== value) (copy ??= { ...fields })[name] = clean;
  }
  return copy ?? fields;
}

/**
 * pino's hook on every log call, before the line is built: the message and its arguments are
 * free text, scrubbed here once; an error or a request has its own serializer.
 */
function scrubArguments(this: unknown, args: unknown[], method: (...args: unknown[]) => void): void {
  const clean = args.map((arg) => (typeof arg === 'string' ? scrubbed(arg) : arg !== null && typeof arg === 'object' && !(arg instanceof Error) ? scrubFields(arg) : arg));
  method.apply(this, clean);
}

/** The options of the app's logger (pino through Fastify), used by server/main.ts and the tests. */
export function loggerOptions(opts: { level: string; stream?: { write(line: string): void } }): LoggerOptions {
  return {
    level: opts.level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req: (req: LoggedRequest) => ({ method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
      err: (err: unknown) => serializeError(err),
      error: (err: unknown) => serializeError(err),
    },
    hooks: { logMethod: scrubArguments },
    ...(opts.stream ? { stream: opts.stream } : {}),
  };
}

/**
 * One line per request, when it is answered: what was asked (the request's serializer), the
 * status and the time taken, where Fastify writes two (one when the request comes, one when it
 * is answered). Given to Fastify as its `logController`.
 */
export class RequestLog extends LogController {
  // At debug level a request is also logged when it arrives: a request still in flight (a slow
  // upload, a drain at shutdown) can then be seen. Below debug this is one level check.
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogCall = (...args: unknown[]) => void;

/**
 * A request's logger that makes its pino child (the request id bound) only when a line is logged:
 * pino binds a child's fields through the redaction paths, whose leading wildcards apply to
 * every field, and at a level above info most requests log nothing.
 */
class RequestLogger {
  #child: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger & { isLevelEnabled?(level: string): boolean },
    private readonly bindings: Record<string, unknown>,
  ) {}

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  logger(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings));
  }

  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  #log(level: Level, args: unknown[]): void {
    if (this.parent.isLevelEnabled?.(level) === false) return;
    (this.logger()[level] as LogCall)(...args);
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#log('error', args);
  }

  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }

  info(...args: unknown[]): void {
    this.#log('info', args);
  }

  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }

  silent(): void {}
}

/**
 * Fastify's childLoggerFactory: every request gets a logger with its id bound. With route options
 * (a route's own level or serializers) it is pino's child at once; otherwise the child is made
 * when the request first logs (RequestLogger), and as pino's plain child: Fastify hands the factory
 * an options object even when empty, which takes pino down its slow path.
 */
export const requestChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger: FastifyBaseLogger, bindings, options) => {
  for (const _option in options) return logger.child(bindings, options);
  return new RequestLogger(logger, bindings) as unknown as FastifyBaseLogger;
};
