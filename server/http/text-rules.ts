import { Stream } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Field names (at any depth of the body) whose text may span lines: line feed, carriage
     * return and tab are allowed there, e.g. a line item's notes. Every other field is one line.
     */
    multilineText?: readonly string[];
  }
}

/**
 * THE rule for text the API accepts (hardening issue, finding 1): no control characters (Unicode
 * Cc: U+0000–U+001F, U+007F–U+009F) and no half of a UTF-16 surrogate pair, in any string of the
 * parsed body, the query string or the path parameters, nor in a body's field names. PostgreSQL
 * cannot store U+0000 at all (it answered 500), a lone surrogate would be stored as U+FFFD (the
 * text silently changed), and other controls are invisible in every screen and report.
 *
 * It runs as a preValidation hook on the root instance, so every route, present and future, gets
 * it without opting in; a route opts in to line breaks for named fields with `multilineText`.
 */
// The characters refused, as code-point ranges: Cc is U+0000–U+001F and U+007F–U+009F, Cs the
// surrogates U+D800–U+DFFF (with the u flag only an unpaired one matches a range of them).
const FORBIDDEN = '\\u0000-\\u001f\\u007f-\\u009f\\ud800-\\udfff';
// The same set without line feed, carriage return and tab (U+0009, U+000A, U+000D).
const FORBIDDEN_IN_MULTI_LINE = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\ud800-\\udfff';
const ONE_LINE = new RegExp(`[${FORBIDDEN}]`, 'u');
const MULTI_LINE = new RegExp(`[${FORBIDDEN_IN_MULTI_LINE}]`, 'u');
/** The rule as a JSON Schema `pattern` (ECMA-262, read with the u flag), for the API document. */
export const ONE_LINE_TEXT_PATTERN = `^[^${FORBIDDEN}]*$`;
export const MULTI_LINE_TEXT_PATTERN = `^[^${FORBIDDEN_IN_MULTI_LINE}]*$`;
// The API's JSON is a few levels deep (an order with line items with details); far deeper is
// not a request of ours, and refusing it keeps the walk (and zod after it) cheap.
export const MAX_BODY_DEPTH = 32;

export const CONTROL_CHARACTERS_MESSAGE = (label: string) =>
  `The ${label} contains control characters or broken text. Please remove them and try again.`;

/** The field a path ends in, in words: ['finishing_service_details', '1'] → 'finishing service details'. */
function fieldLabel(path: string[]): string {
  const field = path.findLast((p) => !/^\d+$/.test(p)) ?? 'request';
  return field.replaceAll('_', ' ');
}

/**
 * The paths (dot-joined) of strings breaking the rule in a parsed JSON value, or 'too deep'.
 * Iterative, so a hostile nesting cannot overflow the stack.
 */
export function findForbiddenText(value: unknown, multiline: ReadonlySet<string> = new Set()): string[][] | 'too deep' {
  const found: string[][] = [];
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop() as { value: unknown; path: string[] };
    if (path.length > MAX_BODY_DEPTH) return 'too deep';
    if (typeof v === 'string') {
      const field = path.at(-1);
      const rule = field !== undefined && multiline.has(field) ? MULTI_LINE : ONE_LINE;
      if (rule.test(v)) found.push(path);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, path: [...path, String(i)] }));
    } else if (isParsedObject(v)) {
      for (const [key, item] of Object.entries(v)) {
        if (ONE_LINE.test(key)) found.push([...path, key]);
        else stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return found;
}

// Parsed JSON, query strings (whose objects have a prototype without Object's methods) and path
// parameters; a raw upload stream (the storage routes) or a buffer is not text to walk.
const isParsedObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !(v instanceof Stream) && !ArrayBuffer.isView(v);

const noMultiline: ReadonlySet<string> = new Set();

/** Registers the rule for every route of `app`; call before any route or plugin is registered. */
export function registerTextRules(app: FastifyInstance): void {
  // Each route's multi-line fields as a set, made once per route rather than per request.
  const multilineOf = new WeakMap<object, ReadonlySet<string>>();
  app.addHook('preValidation', (request, _reply, done) => {
    // Nothing to read (a GET without a query or path parameters): no walk, no promise.
    if ((request.body === undefined || request.body === null) && isEmpty(request.query) && isEmpty(request.params)) return done();
    const config = request.routeOptions.config;
    let multiline = multilineOf.get(config);
    if (!multiline) {
      multiline = config.multilineText ? new Set(config.multilineText) : noMultiline;
      multilineOf.set(config, multiline);
    }
    try {
      checkText(request.body, request.query, request.params, multiline);
      done();
    } catch (err) {
      done(err as Error);
    }
  });
}

// No own key: {} for a call without a query, and a query string's null-prototype object alike.
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object') return false;
  for (const _key in value) return false;
  return true;
}

function checkText(body: unknown, query: unknown, params: unknown, multiline: ReadonlySet<string>): void {
  const parts: [string | null, unknown][] = [
      [null, body],
      ['query', query],
      ['path', params],
    ];
    for (const [where, value] of parts) {
      const found = findForbiddenText(value, where === null ? multiline : noMultiline);
      if (found === 'too deep') throw new HttpError(400, 'BadRequest', 'The request is nested too deeply.', { developerMessage: `JSON deeper than ${MAX_BODY_DEPTH} levels is refused.` });
      const first = found[0];
      if (!first) continue;
      const fields = found.map((p) => (where ? [where, ...p] : p).join('.'));
      const what = where === 'path' ? 'address' : where === 'query' ? `${fieldLabel(first)} in the address` : fieldLabel(first);
      throw new HttpError(400, 'BadRequest', CONTROL_CHARACTERS_MESSAGE(what), {
        developerMessage: `Control characters (Unicode Cc) or unpaired UTF-16 surrogates in: ${fields.join(', ')}.`,
        moreInfo: fields,
      });
    }
}
