/**
 * What an error report may carry, for the server's and the app's reports alike: the user's guid
 * and the error itself, never personal data or secrets. No emails, no tokens, passwords, codes or
 * signatures, no request bodies or headers (beyond the browser's name), no query strings.
 */

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[a-z]{2,}/gi;
// Session tokens (43 characters), reset codes inside longer strings, signatures, keys: any long
// unbroken run of token characters. Words, paths and hashed file names are shorter.
const TOKEN_LIKE = /[A-Za-z0-9_-]{32,}/g;
// key=value pairs in a query string or a message whose key names a secret.
const SECRET_PAIR = /\b([\w-]*(?:token|password|secret|signature|sig|key|code|auth)[\w-]*)=([^&\s"']+)/gi;
// A secret named in prose ("password hunter2", "token: abc"): the word after it goes.
const SECRET_WORD = /\b(password|passwd|token|secret)(:?\s+)([^\s,;)]+)/gi;
// Object keys whose values are dropped wherever they appear.
const SECRET_KEY = /token|password|passwd|secret|authorization|cookie|signature|cvc|card.?number|email/i;

export const REDACTED = '[redacted]';

/**
 * Sentry's `dataCollection` option (SDK 11, where it replaced `sendDefaultPii`) for both SDKs:
 * the SDK collects no user fields, cookies, headers, bodies, query strings or variables of its
 * own; what a report carries is what the app sets (the user's guid) and the error itself.
 */
export const REPORT_DATA_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: false,
  httpBodies: [] as never[],
  urlQueryParams: false,
  databaseQueryData: false,
  queues: false,
  stackFrameVariables: false,
  graphQL: { document: false, variables: false },
  genAI: { inputs: false, outputs: false },
  mcp: { inputs: false, outputs: false },
};

/** A text with emails, secret-looking pairs and token-like strings blanked. */
export function scrubText(text: string): string {
  return text
    .replace(EMAIL, '[email]')
    .replace(SECRET_PAIR, `$1=${REDACTED}`)
    .replace(SECRET_WORD, `$1$2${REDACTED}`)
    .replace(TOKEN_LIKE, REDACTED);
}

/** A URL without its query and fragment (reset links and signed URLs carry secrets there). */
export function scrubUrl(url: string): string {
  return scrubText(url.split(/[?#]/)[0] ?? '');
}

/** Any value with every string scrubbed and every secret-named key's value dropped. */
export function scrubValue(value: unknown, depth = 0): unknown {
  // Reports hold shallow data; deeper nesting is cut rather than walked.
  if (depth > 6) return REDACTED;
  if (typeof value === 'string') return scrubText(value);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? REDACTED : scrubValue(v, depth + 1)]));
  }
  return value;
}

/** The parts of a Sentry event (server or browser) that may hold what a report must not carry. */
interface ReportEvent {
  message?: string;
  user?: { id?: string | number; [key: string]: unknown };
  request?: { url?: string; headers?: Record<string, string>; [key: string]: unknown };
  exception?: { values?: { value?: string; [key: string]: unknown }[] };
  breadcrumbs?: { message?: string; data?: Record<string, unknown>; [key: string]: unknown }[];
  extra?: Record<string, unknown>;
  contexts?: Record<string, unknown>;
  tags?: Record<string, unknown>;
}

/** Scrubs an event in place before it is sent (Sentry's beforeSend); returns it. */
export function scrubEvent<T extends object>(sentryEvent: T): T {
  // Sentry's server and browser event types differ in detail; only these parts are touched.
  const event = sentryEvent as ReportEvent;
  if (event.message) event.message = scrubText(event.message);
  // Only the guid identifies the user: no email, name, or address.
  if (event.user) event.user = event.user.id === undefined ? {} : { id: event.user.id };
  if (event.request) {
    const agent = event.request.headers?.['User-Agent'] ?? event.request.headers?.['user-agent'];
    event.request = { ...(event.request.url ? { url: scrubUrl(event.request.url) } : {}), ...(agent ? { headers: { 'User-Agent': agent } } : {}) };
  }
  for (const value of event.exception?.values ?? []) if (value.value) value.value = scrubText(value.value);
  if (event.breadcrumbs) event.breadcrumbs = event.breadcrumbs.map(scrubBreadcrumb);
  if (event.extra) event.extra = scrubValue(event.extra) as Record<string, unknown>;
  // The SDK's own trace context holds ids that look like tokens and are none: left as they are.
  if (event.contexts) {
    const { trace, ...rest } = event.contexts;
    event.contexts = { ...(scrubValue(rest) as Record<string, unknown>), ...(trace === undefined ? {} : { trace }) };
  }
  if (event.tags) event.tags = scrubValue(event.tags) as Record<string, unknown>;
  return sentryEvent;
}

/** A breadcrumb (a call, a navigation) without query strings or secrets. */
export function scrubBreadcrumb<T extends { message?: string; data?: Record<string, unknown> }>(crumb: T): T {
  const data = crumb.data ? { ...crumb.data } : undefined;
  if (data) {
    for (const key of ['url', 'from', 'to']) if (typeof data[key] === 'string') data[key] = scrubUrl(data[key]);
  }
  return {
    ...crumb,
    ...(crumb.message ? { message: scrubText(crumb.message) } : {}),
    ...(data ? { data: scrubValue(data) as Record<string, unknown> } : {}),
  };
}
