import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../server/app.ts';
import { ALL_ENDPOINTS } from '../../src/contract/all-endpoints.ts';
import { checkAnswersAgainstDocument } from './answer-contract.ts';
import { callApi } from './contract-call.ts';
import { ROUTE_TABLE } from './authorisation-table.ts';
import { api, createTestApp, type TestApp } from './helper.ts';

type Operation = { operationId: string; security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: unknown }>; links?: Record<string, { operationId: string }> }>; requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; parameters?: { name: string; in: string; schema: Record<string, unknown> }[] };
type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };

let t: TestApp;
let doc: Doc;
const op = (method: string, path: string) => {
  const found = doc.paths[api(path)]?.[method];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found;
};
const bodyOf = (o: Operation) => o.requestBody?.content['application/json']?.schema as { properties: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: api('/openapi.json') })).json<Doc>();
});
afterAll(() => t.close());

describe('the API document', () => {
  it('is a valid OpenAPI 3 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('lists API calls only, each with the token as security unless anyone may call it', () => {
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => !p.startsWith('/api/v2/'))).toEqual([]);
    expect(doc).not.toHaveProperty('security');
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, o] of Object.entries(ops)) {
        const row = ROUTE_TABLE[`${method.toUpperCase()} ${path}`];
        // The authorisation matrix says who may really call it; the document must say the same.
        const publicCall = row?.access.anonymous === '2xx';
        expect(o.security, `${method} ${path}`).toEqual(publicCall ? [] : [{ token: [] }]);
        expect(Object.keys(o.responses), `${method} ${path}`).toEqual(expect.arrayContaining(publicCall ? ['400', '500', '503'] : ['400', '401', '500', '503']));
      }
    }
    expect(op('post', '/login').security).toEqual([]);
    expect(op('get', '/papers_with_details').security).toEqual([]);
    expect(op('get', '/lab_orders').security).toEqual([{ token: [] }]);
  });

  it('holds every endpoint of the contract, with its words and its public access', async () => {
    for (const endpoint of ALL_ENDPOINTS) {
      const o = op(endpoint.method.toLowerCase(), endpoint.path.replace(/:([A-Za-z_]+)/g, '{$1}')) as Operation & { summary?: string };
      expect(o.summary, `${endpoint.method} ${endpoint.path}`).toBe(endpoint.summary);
      expect(o.security, `${endpoint.method} ${endpoint.path}`).toEqual(endpoint.public ? [] : [{ token: [] }]);
    }
    // The tests call the lab by the names the page uses; the answer is typed by the contract.
    const status = await callApi(t.app, 'GET /status', {});
    expect(status.status).toBe(200);
    expect(status.json().database).toBe('ok');
  });

  it('documents what a partner webhook receives, per event, with its signature headers', () => {
    const webhooks = (doc as Doc & { webhooks: Record<string, { post: { parameters: { name: string }[]; requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> } } }> }).webhooks;
    expect(Object.keys(webhooks)).toEqual(['order.accepted', 'order.printing', 'order.shipped', 'order.cancelled', 'order.refunded', 'order.delayed']);
    const shipped = webhooks['order.shipped']?.post;
    expect(shipped?.parameters.map((h) => h.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const schema = shipped?.requestBody.content['application/json']?.schema;
    expect(schema?.properties.type).toEqual({ const: 'order.shipped' });
    expect(schema?.required).toEqual(expect.arrayContaining(['id', 'type', 'created_at', 'data']));
  });

  it('gives every error answer the one error body', () => {
    expect(doc.components.schemas).toHaveProperty('ErrorBody');
    const errorSchemas = Object.values(doc.paths)
      .flatMap((ops) => Object.values(ops))
      .flatMap((o) => Object.entries(o.responses).filter(([status]) => Number(status) >= 400))
      .map(([, answer]) => answer.content?.['application/json']?.schema);
    expect(errorSchemas.length).toBeGreaterThan(100);
    expect(new Set(errorSchemas.map((s) => JSON.stringify(s)))).toEqual(new Set([JSON.stringify({ $ref: '#/components/schemas/ErrorBody' })]));
    expect(Object.keys(op('post', '/login').responses)).toEqual(expect.arrayContaining(['422', '429']));
    expect(Object.keys(op('post', '/lab_orders/{guid}/checkout').responses)).toEqual(expect.arrayContaining(['402', '404', '409']));
    expect(Object.keys(op('get', '/api_invoices').responses)).toContain('403');
    // A read without input is never refused as invalid.
    expect(Object.keys(op('get', '/status').responses)).not.toContain('422');
  });

  it("states the server's rules in its request schemas", () => {
    const textRule = bodyOf(op('post', '/lab_orders')).properties.order_name;
    expect(textRule?.pattern).toBeDefined();
    expect(new RegExp(String(textRule?.pattern), 'u').test('Smith wedding')).toBe(true);
    expect(new RegExp(String(textRule?.pattern), 'u').test('Smith\u0000wedding')).toBe(false);
    expect(bodyOf(op('post', '/accounts/generate_tax_report')).properties.year).toMatchObject({ minimum: 2016 });
    expect(bodyOf(op('post', '/users')).properties.password).toMatchObject({ minLength: 8 });
    expect(bodyOf(op('post', '/reset_password')).properties.password).toMatchObject({ minLength: 8 });
    const userForms = (bodyOf(op('patch', '/users/{guid}')) as unknown as { anyOf: { properties: Record<string, unknown> }[] }).anyOf;
    expect(userForms.find((form) => 'current_password' in form.properties)?.properties.password).toMatchObject({ minLength: 8 });
    const filters = op('get', '/lab_orders').parameters?.find((p) => p.name === 'filters')?.schema;
    expect(new RegExp(String(filters?.pattern), 'u').test('mat, ,frame')).toBe(true);
    expect(new RegExp(String(filters?.pattern), 'u').test('no-such-filter')).toBe(false);
  });

  it('links the answers that feed other calls', () => {
    const created = op('post', '/lab_orders').responses['201']?.links ?? {};
    expect(Object.values(created).map((l) => l.operationId)).toEqual(
      expect.arrayContaining([op('get', '/lab_orders/{guid}').operationId, op('post', '/lab_orders/{guid}/checkout').operationId, op('post', '/lab_orders/{guid}/line_items').operationId, op('post', '/lab_orders/{guid}/create_presigned_url').operationId]),
    );
    expect(Object.keys(op('post', '/lab_orders/{guid}/create_presigned_url').responses['200']?.links ?? {})).toContain('CompleteUpload');
    expect(Object.keys(op('post', '/lab_orders/{guid}/line_items').responses['201']?.links ?? {})).toEqual(expect.arrayContaining(['ChangeLineItem', 'DeleteLineItem']));
    expect(Object.keys(op('post', '/accounts/create_card').responses['200']?.links ?? {})).toContain('ChooseCardForOrder');
  });
});

describe('the check of every API test answer against the document', () => {
  // A stand-in app answering what the test says, with the real document: the check must object.
  const appAnswering = (answer: { statusCode: number; body: string }) => {
    const fake = {
      swagger: () => doc,
      printRoutes: () => `stand-in ${answer.statusCode} ${answer.body}`,
      inject: async () => ({ ...answer, headers: { 'content-type': 'application/json; charset=utf-8' } }),
    };
    return fake as unknown as App;
  };

  it('fails on a status the operation does not list, and on a body outside its schema', async () => {
    const teapot = appAnswering({ statusCode: 418, body: '{}' });
    const teapotCheck = checkAnswersAgainstDocument(teapot);
    await teapot.inject({ method: 'GET', url: api('/status') });
    expect(() => teapotCheck.check()).toThrow('GET /api/v2/status → 418: status not documented');

    const wrongBody = appAnswering({ statusCode: 200, body: JSON.stringify({ status: 'ok' }) });
    const wrongBodyCheck = checkAnswersAgainstDocument(wrongBody);
    await wrongBody.inject({ method: 'GET', url: `${api('/status')}?x=1` });
    expect(() => wrongBodyCheck.check()).toThrow(/GET \/api\/v2\/status → 200: body does not match its schema/);

    const fine = appAnswering({ statusCode: 404, body: JSON.stringify({ error: { status: 404, class_name: 'NotFound', developer_message: 'x', user_message: { message: 'x' }, more_info: [] } }) });
    const fineCheck = checkAnswersAgainstDocument(fine);
    await fine.inject({ method: 'GET', url: api('/lab_orders/6c0e0f55-66ad-4f6d-a1c6-5b1b3f0e1f6a') });
    // A page of the app and a signed storage URL are not API calls: not checked.
    await fine.inject({ method: 'GET', url: '/lab-orders/new' });
    expect(() => fineCheck.check()).not.toThrow();
  });
});
