import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

/** A local stand-in for Stripe's API, as the stripe SDK is pointed at it (host, port, protocol). */
const seen: { method: string; path: string; idempotencyKey: string | undefined; auth: string | undefined; body: URLSearchParams }[] = [];
let stub: Server;
let t: TestApp;

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => resolve(data));
  });

beforeAll(async () => {
  let customers = 0;
  stub = createServer(async (req, res) => {
    const body = new URLSearchParams(await readBody(req));
    const path = req.url ?? '';
    seen.push({ method: req.method ?? '', path, idempotencyKey: req.headers['idempotency-key'] as string | undefined, auth: req.headers.authorization, body });
    res.setHeader('content-type', 'application/json');
    res.setHeader('request-id', `req_${seen.length}`);
    if (req.method === 'POST' && path === '/v1/customers') {
      customers += 1;
      return res.end(JSON.stringify({ id: `cus_test${customers}`, object: 'customer', email: body.get('email') }));
    }
    const source = /^\/v1\/customers\/([^/]+)\/sources$/.exec(path);
    if (req.method === 'POST' && source) {
      if (body.get('source') === 'tok_cardDeclined') {
        res.statusCode = 402;
        return res.end(JSON.stringify({ error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } }));
      }
      return res.end(JSON.stringify({ id: `card_${seen.length}`, object: 'card', brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2030, customer: source[1] }));
    }
    res.statusCode = 404;
    return res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'No such route' } }));
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const port = (stub.address() as { port: number }).port;
  t = await createTestApp({ STRIPE_SECRET_KEY: 'sk_test_lab', STRIPE_PUBLISHABLE_KEY: 'pk_test_lab', STRIPE_API_URL: `http://127.0.0.1:${port}` });
});

afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => stub.close(() => resolve()));
});

describe('cards through Stripe', () => {
  it('tells the app to show Stripe with its publishable key, and offers no sandbox field', async () => {
    expect((await t.app.inject({ method: 'GET', url: api('/payments/config') })).json()).toEqual({ provider: 'stripe', publishable_key: 'pk_test_lab' });
    expect((await t.app.inject({ method: 'POST', url: api('/sandbox/tokens'), payload: {} })).statusCode).toBe(404);
  });

  it('makes one Stripe customer per photographer and saves cards as its sources, with idempotency keys', async () => {
    const { user, password } = await createUser(t.db);
    const token = await signIn(t.app, user.email, password);
    const save = (token_id: string) => t.app.inject({ method: 'POST', url: api('/accounts/create_card'), headers: { token }, payload: { token_id } });
    const first = await save('tok_visa');
    expect(first.statusCode).toBe(200);
    expect(first.json().cards.data[0].masked_card).toBe('VISA •••• 4242');
    expect(first.json().user.stripe_customer_id).toBe('cus_test1');
    await save('tok_mastercard');
    const customerCalls = seen.filter((s) => s.path === '/v1/customers');
    expect(customerCalls).toHaveLength(1);
    expect(customerCalls[0]?.body.get('email')).toBe(user.email);
    expect(customerCalls[0]?.idempotencyKey).toBe(`customer-${user.guid}`);
    expect(customerCalls[0]?.auth).toBe('Bearer sk_test_lab');
    const sources = seen.filter((s) => s.path === '/v1/customers/cus_test1/sources');
    expect(sources.map((s) => s.body.get('source'))).toEqual(['tok_visa', 'tok_mastercard']);
    expect(sources[0]?.idempotencyKey).toBe(`source-${user.guid}-tok_visa`);
  });

  it("shows Stripe's card error in its own words, and saves nothing", async () => {
    const { user, password } = await createUser(t.db);
    const token = await signIn(t.app, user.email, password);
    const res = await t.app.inject({ method: 'POST', url: api('/accounts/create_card'), headers: { token }, payload: { token_id: 'tok_cardDeclined' } });
    expect(res.statusCode).toBe(402);
    expect(expectErrorBody(res.json(), 402).message).toBe('Your card was declined.');
    expect((await t.app.inject({ method: 'GET', url: api('/profile'), headers: { token } })).json().cards.data).toEqual([]);
  });
});
