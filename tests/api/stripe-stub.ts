import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * A local stand-in for the parts of Stripe's API the lab uses, as the stripe SDK is pointed at it
 * (STRIPE_API_URL), with Stripe's idempotency (a repeated Idempotency-Key answers the first
 * response and creates nothing):
 * - customers; PaymentMethods made from card field tokens; SetupIntents that save them to a
 *   customer; PaymentIntents that charge them off session, listed per customer and searched by
 *   metadata; charges (a PaymentIntent's, and legacy ones) listed and searched the same way;
 *   refunds of a charge and their list.
 * - The legacy path: card sources attached to a customer (`card_…`), which a PaymentIntent takes
 *   as its payment_method, as Stripe does.
 * Stripe's test tokens: tok_visa and tok_mastercard work; tok_chargeDeclined is declined as it is
 * saved (SetupIntent or source); tok_chargeCustomerFail saves, and its charges are declined;
 * tok_threeDSecure2Required saves only after the bank's confirmation (the SetupIntent waits).
 */

export interface StubCharge {
  id: string;
  object: 'charge';
  amount: number;
  currency: string;
  customer: string | null;
  /** The legacy card source charged, or null. */
  source: string | null;
  payment_method: string | null;
  payment_intent: string | null;
  status: 'succeeded' | 'failed';
  failure_message: string | null;
  description: string | null;
  metadata: Record<string, string>;
  created: number;
}

export interface StubPaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  payment_method: string;
  status: 'succeeded' | 'requires_payment_method' | 'processing';
  last_payment_error: { type: string; code: string; message: string } | null;
  latest_charge: string | null;
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

type Behaviour = 'succeeds' | 'declines' | 'declined' | 'needs-bank';

const TOKENS: Record<string, { brand: string; last4: string; behaviour: Behaviour }> = {
  tok_visa: { brand: 'visa', last4: '4242', behaviour: 'succeeds' },
  tok_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'succeeds' },
  tok_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'declined' },
  tok_chargeCustomerFail: { brand: 'visa', last4: '0341', behaviour: 'declines' },
  tok_threeDSecure2Required: { brand: 'visa', last4: '3220', behaviour: 'needs-bank' },
};
const ID_PART: Record<Behaviour, string> = { succeeds: 'ok', declines: 'declines', declined: 'declined', 'needs-bank': 'bank' };

export interface StripeStub {
  url: string;
  /** Every request, in order. */
  seen: { method: string; path: string; idempotencyKey: string | undefined; auth: string | undefined; body: URLSearchParams }[];
  /** Every charge Stripe made (declined ones too), as it keeps them. */
  charges: StubCharge[];
  /** Every PaymentIntent Stripe made (declined ones too). */
  paymentIntents: StubPaymentIntent[];
  /** Every PaymentMethod, and the customer it is saved to (null: made, never saved). */
  paymentMethods: Map<string, { behaviour: Behaviour; customer: string | null }>;
  /** Every refund Stripe made. */
  refunds: StubRefund[];
  /** How many of the next charges are made but their answer lost (the connection drops). */
  dropAnswers: number;
  /** While set, a charge request waits for it before Stripe makes the charge (a charge in flight). */
  holdCharges: Promise<void> | null;
  /** Charge requests waiting for holdCharges now. */
  chargesHeld: number;
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

const declined = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
const serverError = (res: ServerResponse) => {
  // Not remembered under its key: Stripe has not made anything (yet).
  res.statusCode = 500;
  res.end(JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }));
};
const now = () => Math.floor(Date.now() / 1000);
const list = (path: string, data: unknown[]) => ({ object: 'list', data, has_more: false, url: path });
const searched = (path: string, query: string | null, data: { metadata: Record<string, string> }[]) => {
  const m = /^metadata\['idempotency_key'\]:'(.+)'$/.exec(query ?? '');
  return { object: 'search_result', data: data.filter((d) => m && d.metadata.idempotency_key === m[1]), has_more: false, url: path };
};

export async function startStripeStub(): Promise<StripeStub> {
  const stub: StripeStub = {
    url: '',
    seen: [],
    charges: [],
    paymentIntents: [],
    paymentMethods: new Map(),
    refunds: [],
    dropAnswers: 0,
    holdCharges: null,
    chargesHeld: 0,
    failCharges: 0,
    failRefunds: 0,
    close: async () => {},
  };
  const { seen, charges, paymentIntents, paymentMethods, refunds } = stub;
  const replies = new Map<string, { status: number; body: string }>();
  let made = 0;
  const next = () => (made += 1);

  const send = (res: ServerResponse, status: number, body: unknown, key?: string) => {
    const text = JSON.stringify(body);
    if (key) replies.set(key, { status, body: text });
    res.statusCode = status;
    res.end(text);
  };

  /** A PaymentIntent's charge of a PaymentMethod or a legacy card source, declined as the card was made to. */
  function chargeIntent(body: URLSearchParams): { intent: StubPaymentIntent; charge: StubCharge } {
    const method = body.get('payment_method') ?? '';
    const declines = method.startsWith('card_') ? method.startsWith('card_declines') : paymentMethods.get(method)?.behaviour !== 'succeeds';
    const n = next();
    const metadata = metadataOf(body);
    const charge: StubCharge = {
      id: `ch_stub_${n}`,
      object: 'charge',
      amount: Number(body.get('amount')),
      currency: body.get('currency') ?? '',
      customer: body.get('customer'),
      source: method.startsWith('card_') ? method : null,
      payment_method: method,
      payment_intent: `pi_stub_${n}`,
      status: declines ? 'failed' : 'succeeded',
      failure_message: declines ? declined.message : null,
      description: body.get('description'),
      // As at Stripe: the charge carries its PaymentIntent's metadata.
      metadata,
      created: now(),
    };
    const intent: StubPaymentIntent = {
      id: `pi_stub_${n}`,
      object: 'payment_intent',
      amount: charge.amount,
      amount_received: declines ? 0 : charge.amount,
      currency: charge.currency,
      customer: charge.customer,
      payment_method: method,
      status: declines ? 'requires_payment_method' : 'succeeded',
      last_payment_error: declines ? declined : null,
      latest_charge: charge.id,
      description: charge.description,
      metadata,
      created: charge.created,
    };
    charges.push(charge);
    paymentIntents.push(intent);
    return { intent, charge };
  }

  const server = createServer(async (req, res) => {
    const body = new URLSearchParams(await readBody(req));
    const url = new URL(req.url ?? '/', 'http://stub');
    const key = req.headers['idempotency-key'] as string | undefined;
    seen.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key, auth: req.headers.authorization, body });
    res.setHeader('content-type', 'application/json');
    res.setHeader('request-id', `req_${seen.length}`);
    const replay = req.method === 'POST' && key ? replies.get(key) : undefined;
    if (replay) {
      res.setHeader('idempotent-replayed', 'true');
      res.statusCode = replay.status;
      return res.end(replay.body);
    }
    const route = `${req.method} ${url.pathname}`;
    if (route === 'POST /v1/customers') return send(res, 200, { id: `cus_stub${next()}`, object: 'customer', email: body.get('email') }, key);
    if (route === 'POST /v1/payment_methods') {
      const token = TOKENS[body.get('card[token]') ?? ''];
      if (!token) return send(res, 400, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such token: '${body.get('card[token]') ?? ''}'` } }, key);
      const id = `pm_${ID_PART[token.behaviour]}_${next()}`;
      paymentMethods.set(id, { behaviour: token.behaviour, customer: null });
      return send(res, 200, { id, object: 'payment_method', type: 'card', customer: null, card: { brand: token.brand, last4: token.last4, exp_month: 12, exp_year: 2030 } }, key);
    }
    if (route === 'POST /v1/setup_intents') {
      const methodId = body.get('payment_method') ?? '';
      const method = paymentMethods.get(methodId);
      if (!method) return send(res, 400, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${methodId}'` } }, key);
      const intent = { id: `seti_stub_${next()}`, object: 'setup_intent', customer: body.get('customer'), payment_method: methodId, usage: body.get('usage'), status: 'succeeded', last_setup_error: null as typeof declined | null, client_secret: 'seti_secret' };
      // As at Stripe: the bank checks the card as it is set up; declined, it is not saved.
      if (method.behaviour === 'declined') return send(res, 402, { error: { ...declined, setup_intent: { ...intent, status: 'requires_payment_method', last_setup_error: declined } } }, key);
      if (method.behaviour === 'needs-bank') return send(res, 200, { ...intent, status: 'requires_action', next_action: { type: 'use_stripe_sdk' } }, key);
      method.customer = body.get('customer');
      return send(res, 200, intent, key);
    }
    const source = /^\/v1\/customers\/([^/]+)\/sources$/.exec(url.pathname);
    if (req.method === 'POST' && source) {
      const token = TOKENS[body.get('source') ?? ''];
      if (token?.behaviour === 'declined') return send(res, 402, { error: declined }, key);
      const declines = token?.behaviour === 'declines';
      return send(res, 200, { id: `card_${declines ? 'declines' : 'ok'}_${next()}`, object: 'card', brand: 'Visa', last4: token?.last4 ?? '4242', exp_month: 12, exp_year: 2030, customer: source[1] }, key);
    }
    if (route === 'POST /v1/payment_intents') {
      if (stub.failCharges > 0) {
        stub.failCharges -= 1;
        return serverError(res);
      }
      if (stub.holdCharges) {
        stub.chargesHeld += 1;
        await stub.holdCharges.finally(() => (stub.chargesHeld -= 1));
      }
      const { intent, charge } = chargeIntent(body);
      if (stub.dropAnswers > 0) {
        stub.dropAnswers -= 1;
        // Made and remembered under its key, but the caller never hears of it.
        replies.set(key ?? '', { status: 200, body: JSON.stringify(intent) });
        return req.socket.destroy();
      }
      if (intent.status !== 'succeeded') return send(res, 402, { error: { ...declined, charge: charge.id, payment_intent: intent } }, key);
      return send(res, 200, intent, key);
    }
    if (route === 'POST /v1/refunds') {
      if (stub.failRefunds > 0) {
        stub.failRefunds -= 1;
        return serverError(res);
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
    // Lists are newest first, as at Stripe.
    const customer = url.searchParams.get('customer');
    if (route === 'GET /v1/payment_intents') return send(res, 200, list(url.pathname, paymentIntents.filter((i) => !customer || i.customer === customer).toReversed()));
    if (route === 'GET /v1/charges') return send(res, 200, list(url.pathname, charges.filter((c) => !customer || c.customer === customer).toReversed()));
    if (route === 'GET /v1/refunds') {
      const charge = url.searchParams.get('charge');
      return send(res, 200, list(url.pathname, refunds.filter((r) => !charge || r.charge === charge).toReversed()));
    }
    if (route === 'GET /v1/payment_intents/search') return send(res, 200, searched(url.pathname, url.searchParams.get('query'), paymentIntents));
    if (route === 'GET /v1/charges/search') return send(res, 200, searched(url.pathname, url.searchParams.get('query'), charges));
    return send(res, 404, { error: { type: 'invalid_request_error', message: 'No such route' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  stub.url = `http://127.0.0.1:${port}`;
  stub.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return stub;
}
