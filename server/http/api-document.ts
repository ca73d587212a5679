import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_PREFIX, isApiPath } from '../../src/domain/paths.ts';
import { isPublicRoute, TOKEN_HEADER } from './auth.ts';
import { errorBodySchema } from './errors.ts';
import { partnerEventSchema } from '../../src/contract/webhooks.ts';
import { PARTNER_EVENT_TYPES } from '../../src/domain/partner-webhooks.ts';
import { API_LINKS, operationId } from './api-links.ts';
import { MULTI_LINE_TEXT_PATTERN, ONE_LINE_TEXT_PATTERN } from './text-rules.ts';

const ERROR_BODY_REF = { $ref: '#/components/schemas/ErrorBody' };

/** Why each status comes back, as the document says it. */
const STATUS_MEANING: Record<number, string> = {
  400: 'Bad request: the body is not JSON, a text holds control characters, or the address is malformed.',
  401: 'No valid session: sign in and send the token header.',
  402: 'The payment was declined.',
  403: 'Not allowed: a call for lab admins, or a link that is no longer valid.',
  404: 'Not found, or not yours (a photographer is never told that something of another exists).',
  409: 'Conflict: the same Idempotency-Key is in use by another request, or the thing changed meanwhile.',
  413: 'The request body is too large.',
  414: 'A path parameter is longer than any id of the lab.',
  415: 'The request body is not JSON.',
  422: 'The request breaks a rule: error.more_info names each field and what is wrong with it.',
  429: 'Too many attempts: wait a minute and try again.',
  500: 'A fault of the lab: the error is reported and the call can be tried again.',
  502: 'The payment provider failed, or its answer is not known yet: the refund is settled later, nothing is done twice.',
  503: 'The lab is restarting, or a part it needs is not running: try again in a moment.',
};

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What the document needs to know of a route beyond its schemas (its hooks' rules). */
interface OperationFacts {
  secured: boolean;
  /** Has a body, query or path schema, or is a change (an Idempotency-Key reused with other content): 422. */
  validated: boolean;
  rateLimited: boolean;
  hasParams: boolean;
  takesBody: boolean;
  /** Takes an Idempotency-Key (idempotency.ts): 409 while the same key is in use or was another sign-in's. */
  idempotent: boolean;
}

type JsonSchema = Record<string, unknown>;

/**
 * The partner webhooks' events (src/contract/webhooks.ts): one POST per event type, signed with
 * the Standard Webhooks headers; the partner answers 2xx to take it, anything else is retried.
 */
function partnerWebhooks() {
  const payload = z.toJSONSchema(partnerEventSchema, { target: 'draft-2020-12', io: 'output' });
  const header = (name: string, description: string) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } });
  return Object.fromEntries(
    PARTNER_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `${type}: sent to each webhook of the order's photographer`,
          parameters: [
            header('webhook-id', 'The event id: the same on every retry; drop repeats by it.'),
            header('webhook-timestamp', 'Seconds since 1970 when this try was signed; refuse old ones (replay).'),
            header('webhook-signature', 'v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the secret shown at registration>.'),
          ],
          requestBody: { required: true, content: { 'application/json': { schema: { ...payload, properties: { ...payload.properties, type: { const: type } } } } } },
          responses: { '200': { description: 'Taken. Any other status (or none within 10 s) is tried again with backoff.' } },
        },
      },
    ]),
  );
}

/**
 * The statuses every route of a kind can answer, from the layers every route passes through:
 * the router and text rules (400, 414), the body parser (413, 415), validation (422), the
 * session check (401), the rate limit (429), the Idempotency-Key (409), and the error handler
 * (500, 503).
 */
function commonStatuses(facts: OperationFacts): number[] {
  const statuses = [400, 500, 503];
  if (facts.validated) statuses.push(422);
  if (facts.secured) statuses.push(401);
  if (facts.hasParams) statuses.push(404, 414);
  if (facts.takesBody) statuses.push(413, 415);
  if (facts.rateLimited) statuses.push(429);
  if (facts.idempotent) statuses.push(409);
  return statuses;
}

/**
 * Adds the text rule of text-rules.ts to every free string of a request schema (enums and
 * constants are the lab's own words), with line breaks where the route allows them.
 */
function addTextRule(schema: unknown, multiline: ReadonlySet<string>, field?: string): void {
  if (Array.isArray(schema)) return schema.forEach((s) => addTextRule(s, multiline, field));
  if (typeof schema !== 'object' || schema === null) return;
  const s = schema as JsonSchema;
  if (s.type === 'string' && s.enum === undefined && s.const === undefined) {
    const pattern = field !== undefined && multiline.has(field) ? MULTI_LINE_TEXT_PATTERN : ONE_LINE_TEXT_PATTERN;
    if (s.pattern === undefined) s.pattern = pattern;
    else if (s.pattern !== pattern) s.allOf = [...((s.allOf as unknown[]) ?? []), { pattern }];
  }
  const properties = s.properties as Record<string, unknown> | undefined;
  if (properties) for (const [name, property] of Object.entries(properties)) addTextRule(property, multiline, name);
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties', 'prefixItems']) {
    if (key in s) addTextRule(s[key], multiline, key === 'items' || key === 'prefixItems' ? field : key === 'additionalProperties' ? undefined : field);
  }
}

type Operation = { operationId?: string; security?: unknown; responses: Record<string, { description: string; content?: unknown; links?: unknown }> };
type OpenApi = { paths: Record<string, Record<string, Operation>>; components: { schemas?: Record<string, unknown> } };

const errorResponse = (status: number) => ({
  description: STATUS_MEANING[status] ?? 'An error, with the error body.',
  content: { 'application/json': { schema: ERROR_BODY_REF } },
});

/**
 * Serves the API document at /api/v2/openapi.json, made from the schemas the routes validate
 * with: security per operation (none on public calls, by the same flag auth.ts checks), every
 * status a call can answer with the one error body, the text rule on every free string, and links
 * from the answers that feed other calls (api-links.ts).
 */
export async function registerApiDocument(app: FastifyInstance, version: string): Promise<void> {
  const facts = new Map<string, OperationFacts>();
  await app.register(swagger, {
    openapi: {
      // 3.1 for its `webhooks`: what a partner's URL receives is part of the contract too.
      openapi: '3.1.0',
      info: { title: 'Print lab ordering API', version },
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: TOKEN_HEADER } },
        schemas: { ErrorBody: z.toJSONSchema(errorBodySchema, { target: 'draft-2020-12', io: 'output' }) as never },
      },
      webhooks: partnerWebhooks() as never,
    },
    transform: (document) => {
      const { url, route } = document;
      if (!isApiPath(url)) return { schema: { ...document.schema, hide: true }, url };
      // A route without a schema (tests add such) is still an operation, with no rules stated.
      const result = jsonSchemaTransform({ ...document, schema: document.schema ?? {} });
      const schema = result.schema as JsonSchema & { response?: Record<string, unknown> };
      const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
      const id = operationId(method, url.slice(API_PREFIX.length));
      const config = (route as RouteOptions).config ?? {};
      const multiline = new Set(config.multilineText ?? []);
      for (const part of ['body', 'querystring', 'params'] as const) addTextRule(schema[part], multiline);
      facts.set(id, {
        secured: !isPublicRoute(config),
        validated: CHANGES.has(method) || ['body', 'querystring', 'params'].some((part) => schema[part] !== undefined),
        rateLimited: Boolean((config as { rateLimit?: unknown }).rateLimit),
        hasParams: schema.params !== undefined,
        takesBody: CHANGES.has(method),
        idempotent: CHANGES.has(method) && config.idempotency !== false,
      });
      return { schema: { ...schema, operationId: id, security: isPublicRoute(config) ? [] : [{ token: [] }] }, url };
    },
    transformObject: (document) => ('openapiObject' in document ? finishDocument(document.openapiObject as unknown as OpenApi, facts) : document.swaggerObject) as never,
  });
}

/** The error answers and links, once every operation is in the document. */
function finishDocument(doc: OpenApi, facts: ReadonlyMap<string, OperationFacts>): OpenApi {
  const operations = new Map<string, Operation>();
  for (const ops of Object.values(doc.paths)) for (const op of Object.values(ops)) if (op.operationId) operations.set(op.operationId, op);
  for (const [id, op] of operations) {
    const known = facts.get(id);
    const declared = Object.keys(op.responses).map(Number).filter((s) => s >= 400);
    const statuses = new Set([...declared, ...(known ? commonStatuses(known) : [])]);
    for (const status of [...statuses].sort()) op.responses[String(status)] = errorResponse(status);
  }
  for (const link of API_LINKS) {
    const from = operations.get(link.from);
    const to = operations.get(link.to);
    // A link to or from a call this app does not serve would mislead: the document fails to build.
    if (!from || !to) throw new Error(`API link ${link.name}: no operation ${from ? link.to : link.from}`);
    const answer = from.responses[link.status];
    if (!answer) throw new Error(`API link ${link.name}: ${link.from} has no ${link.status} answer`);
    answer.links = { ...(answer.links as object), [link.name]: { operationId: link.to, ...(link.parameters ? { parameters: link.parameters } : {}), description: link.description } };
  }
  return doc;
}
