import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * A local stand-in for the parts of Stripe's API the lab uses, as the stripe SDK is pointed at it
 * (STRIPE_API_URL): customers, card sources, charges with Stripe's idempotency (a repeated
 * Idempotency-Key answers the first response and creates nothing), listing a customer's charges
 * and searching them by metadata; refunds and listing a charge's refunds. As at Stripe,
 * tok_chargeDeclined is declined when attached, and cards saved from tok_chargeCustomerFail are
 * declined when charged.
 */

export interface StubCharge {
  id: string;
  object: 'charge';
  amount: number;
  currency: string;
  customer: string | null;
  source: string;
  status: 'succeeded' | 'failed';
  failure_message: string | null;
  description: string | null;
  metadata: Record<string, string>;
  created: number;
}

export interface StubRefund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  status: 'succeeded';
  metadata: Record<string, string>;
}

export interface StripeStub {
  url: string;
  /** Every request, in order. */
  seen: { method: string; path: string; idempotencyKey: string | undefined; body: URLSearchParams }[];
  /** Every charge Stripe made (declined ones too), as it keeps them. */
  charges: StubCharge[];
  /** Every refund Stripe made. */
  refunds: StubRefund[];
  /** How many of the next charges are made but their answer lost (the connection drops). */
  dropAnswers: number;
  /** How long Stripe takes to answer a charge (a real charge takes a second or two). */
  chargeDelayMs: number;
  /** How many of the next charge requests fail with a 500 before Stripe records anything. */
  failCharges: number;
  /** How many of the next refund requests fail with a 500 before Stripe records anything. */
  failRefunds: number;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => resolve(data));
  });

/** Stripe's form encoding of `metadata[key]=value` back into an object. */
function metadataOf(body: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of body) {
    const m = /^metadata\[(.+)\]$/.exec(key);
    if (m?.[1]) out[m[1]] = value;
  }
  return out;
}

export async function startStripeStub(): Promise<StripeStub> {
  const seen: StripeStub['seen'] = [];
  const charges: StubCharge[] = [];
  const refunds: StubRefund[] = [];
  const stub: StripeStub = { url: '', seen, charges, refunds, dropAnswers: 0, chargeDelayMs: 0, failCharges: 0, failRefunds: 0, close: async () => {} };
  const replies = new Map<string, { status: number; body: string }>();
  let customers = 0;
  let sources = 0;

  const send = (res: ServerResponse, status: number, body: unknown, key?: string) => {
    const text = JSON.stringify(body);
    if (key) replies.set(key, { status, body: text });
    res.statusCode = status;
    res.end(text);
  };

  const server = createServer(async (req, res) => {
    const body = new URLSearchParams(await readBody(req));
    const url = new URL(req.url ?? '/', 'http://stub');
    const key = req.headers['idempotency-key'] as string | undefined;
    seen.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key, body });
    res.setHeader('content-type', 'application/json');
    res.setHeader('request-id', `req_${seen.length}`);
    const replay = req.method === 'POST' && key ? replies.get(key) : undefined;
    if (replay) {
      res.setHeader('idempotent-replayed', 'true');
      res.statusCode = replay.status;
      return res.end(replay.body);
    }
    if (req.method === 'POST' && url.pathname === '/v1/customers') {
      customers += 1;
      return send(res, 200, { id: `cus_stub${customers}`, object: 'customer', email: body.get('email') }, key);
    }
    const source = /^\/v1\/customers\/([^/]+)\/sources$/.exec(url.pathname);
    if (req.method === 'POST' && source) {
      // As Stripe does: tok_chargeDeclined is declined as it is attached; tok_chargeCustomerFail
      // attaches, and its charges are declined.
      if (body.get('source') === 'tok_chargeDeclined') return send(res, 402, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } }, key);
      sources += 1;
      const declines = body.get('source') === 'tok_chargeCustomerFail';
      return send(res, 200, { id: `card_${declines ? 'declines' : 'ok'}_${sources}`, object: 'card', brand: 'Visa', last4: declines ? '0341' : '4242', exp_month: 12, exp_year: 2030, customer: source[1] }, key);
    }
    if (req.method === 'POST' && url.pathname === '/v1/charges') {
      if (stub.failCharges > 0) {
        stub.failCharges -= 1;
        // Not remembered under its key: Stripe has not made the charge (yet).
        res.statusCode = 500;
        return res.end(JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }));
      }
      if (stub.chargeDelayMs) await new Promise((resolve) => setTimeout(resolve, stub.chargeDelayMs));
      const declines = (body.get('source') ?? '').startsWith('card_declines');
      const charge: StubCharge = {
        id: `ch_stub_${charges.length + 1}`,
        object: 'charge',
        amount: Number(body.get('amount')),
        currency: body.get('currency') ?? '',
        customer: body.get('customer'),
        source: body.get('source') ?? '',
        status: declines ? 'failed' : 'succeeded',
        failure_message: declines ? 'Your card was declined.' : null,
        description: body.get('description'),
        metadata: metadataOf(body),
        created: Math.floor(Date.now() / 1000),
      };
      charges.push(charge);
      if (stub.dropAnswers > 0) {
        stub.dropAnswers -= 1;
        // Made and remembered under its key, but the caller never hears of it.
        replies.set(key ?? '', { status: 200, body: JSON.stringify(charge) });
        return req.socket.destroy();
      }
      if (declines) return send(res, 402, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.', charge: charge.id } }, key);
      return send(res, 200, charge, key);
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      if (stub.failRefunds > 0) {
        stub.failRefunds -= 1;
        res.statusCode = 500;
        return res.end(JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }));
      }
      // As Stripe: a refund of a succeeded charge, never more than what is left of it.
      const charge = charges.find((c) => c.id === body.get('charge') && c.status === 'succeeded');
      if (!charge) return send(res, 400, { error: { type: 'invalid_request_error', message: `No such charge: '${body.get('charge') ?? ''}'` } }, key);
      const left = charge.amount - refunds.filter((r) => r.charge === charge.id).reduce((sum, r) => sum + r.amount, 0);
      const amount = Number(body.get('amount') ?? left);
      if (amount > left) return send(res, 400, { error: { type: 'invalid_request_error', message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})` } }, key);
      const refund: StubRefund = { id: `re_stub_${refunds.length + 1}`, object: 'refund', amount, charge: charge.id, status: 'succeeded', metadata: metadataOf(body) };
      refunds.push(refund);
      return send(res, 200, refund, key);
    }
    if (req.method === 'GET' && url.pathname === '/v1/charges') {
      const customer = url.searchParams.get('customer');
      const data = charges.filter((c) => !customer || c.customer === customer).toReversed();
      return send(res, 200, { object: 'list', data, has_more: false, url: '/v1/charges' });
    }
    if (req.method === 'GET' && url.pathname === '/v1/refunds') {
      // A charge's refunds, newest first (Stripe's order).
      const charge = url.searchParams.get('charge');
      const data = refunds.filter((r) => !charge || r.charge === charge).toReversed();
      return send(res, 200, { object: 'list', data, has_more: false, url: '/v1/refunds' });
    }
    if (req.method === 'GET' && url.pathname === '/v1/charges/search') {
      const m = /^metadata\['idempotency_key'\]:'(.+)'$/.exec(url.searchParams.get('query') ?? '');
      const data = charges.filter((c) => m && c.metadata.idempotency_key === m[1]);
      return send(res, 200, { object: 'search_result', data, has_more: false, url: '/v1/charges/search' });
    }
    return send(res, 404, { error: { type: 'invalid_request_error', message: 'No such route' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  stub.url = `http://127.0.0.1:${port}`;
  stub.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return stub;
}
