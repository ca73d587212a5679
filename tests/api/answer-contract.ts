import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { App } from '../../server/app.ts';
import { isApiPath } from '../../src/domain/paths.ts';

/**
 * Every API answer a test gets through `inject` is checked against the served API document: its
 * status is documented for that operation and its JSON body matches that answer's schema. Calls
 * outside the document (the app's pages, the store's signed URLs, test-only routes) are not
 * checked: isApiPath is the rule that keeps them out of the document too.
 */

type Schema = Record<string, unknown>;
interface Answer {
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  responses: Record<string, Answer>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, Schema> };
}
interface Route {
  method: string;
  path: string;
  pattern: RegExp;
  staticSegments: number;
  operation: Operation;
}

// One compiler per worker, one compiled validator per distinct schema: the API files share a
// worker (isolate: false), and most files build apps with the same document.
const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();
// Within one app the document is one object: its schemas are found again without serialising them.
const compiledFor = new WeakMap<Schema, ValidateFunction>();

function validatorFor(schema: Schema, doc: Doc): ValidateFunction {
  const known = compiledFor.get(schema);
  if (known) return known;
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (!validate) {
    // The document's components travel with each schema, so its $refs resolve.
    validate = ajv.compile({ ...schema, components: doc.components });
    compiled.set(text, validate);
  }
  compiledFor.set(schema, validate);
  return validate;
}

function routesOf(doc: Doc): Route[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, operation]) => {
      const segments = path.split('/');
      const pattern = new RegExp(`^${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);
      return { method: method.toUpperCase(), path, pattern, staticSegments: segments.filter((s) => !s.startsWith('{')).length, operation };
    }),
  );
}

/** The operation a request reaches: a static segment wins over a parameter, as in the router. */
function operationFor(routes: Route[], method: string, path: string): Route | undefined {
  let best: Route | undefined;
  for (const route of routes) {
    if (route.method === method && route.pattern.test(path) && (!best || route.staticSegments > best.staticSegments)) best = route;
  }
  return best;
}

// Making the document costs a few hundred milliseconds of CPU per app; apps with the same routes
// (most of a worker's) share it. Only the routes differ between test apps (the payment provider's
// sandbox call, test-only routes), so the router's listing tells their documents apart.
const documents = new Map<string, { doc: Doc; routes: Route[] }>();
function documentOf(app: App): { doc: Doc; routes: Route[] } {
  const key = app.printRoutes({ commonPrefix: false });
  let known = documents.get(key);
  if (!known) {
    const doc = app.swagger() as unknown as Doc;
    known = { doc, routes: routesOf(doc) };
    documents.set(key, known);
  }
  return known;
}

/** Wraps `app.inject` to check each API answer; `check()` throws with every mismatch found. */
export function checkAnswersAgainstDocument(app: App): { check(): void } {
  const mismatches = new Set<string>();
  let document: { doc: Doc; routes: Route[] } | undefined;
  const original = app.inject.bind(app) as (opts?: InjectOptions | string, cb?: unknown) => unknown;

  const record = (opts: InjectOptions | string, res: LightMyRequestResponse) => {
    const method = (typeof opts === 'string' ? 'GET' : (opts.method ?? 'GET')).toUpperCase();
    const url = typeof opts === 'string' ? opts : typeof opts.url === 'string' ? opts.url : String(opts.path ?? '');
    const path = new URL(url, 'http://lab.test').pathname;
    if (method === 'HEAD' || method === 'OPTIONS' || !isApiPath(path)) return;
    document ??= documentOf(app);
    const { doc, routes } = document;
    const route = operationFor(routes, method, path);
    if (!route) return;
    const where = `${method} ${route.path} → ${res.statusCode}`;
    const answer = route.operation.responses[String(res.statusCode)] ?? route.operation.responses.default;
    if (!answer) return void mismatches.add(`${where}: status not documented (${res.body.slice(0, 200)})`);
    const schema = answer.content?.['application/json']?.schema;
    const json = String(res.headers['content-type'] ?? '').startsWith('application/json') && !res.headers['content-encoding'];
    if (!schema || !json || res.body === '') return;
    const validate = validatorFor(schema, doc);
    if (!validate(JSON.parse(res.body))) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${e.params ? JSON.stringify(e.params) : ''}`).join('; ');
      mismatches.add(`${where}: body does not match its schema: ${errors} (${res.body.slice(0, 300)})`);
    }
  };

  app.inject = ((opts?: InjectOptions | string, cb?: unknown) => {
    if (opts === undefined || cb !== undefined) return original(opts, cb);
    return (original(opts) as Promise<LightMyRequestResponse>).then((res) => {
      record(opts, res);
      return res;
    });
  }) as App['inject'];

  return {
    check: () => {
      if (!mismatches.size) return;
      throw new Error(`answers outside the API document (/api/v2/openapi.json):\n- ${[...mismatches].join('\n- ')}`);
    },
  };
}
