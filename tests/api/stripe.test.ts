import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEEDS_BANK_CONFIRMATION } from '../../server/adapters/payments/stripe-payments.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { startStripeStub, type StripeStub } from './stripe-stub.ts';

/** Saving cards through Stripe (its API stubbed locally): a PaymentMethod set up on the photographer's customer. */
let stripe: StripeStub;
let t: TestApp;

beforeAll(async () => {
  stripe = await startStripeStub();
  t = await createTestApp({ STRIPE_SECRET_KEY: 'sk_test_lab', STRIPE_PUBLISHABLE_KEY: 'pk_test_lab', STRIPE_API_URL: stripe.url });
});

afterAll(async () => {
  await t.close();
  await stripe.close();
});

async function photographer() {
  const { user, password } = await createUser(t.db);
  const token = await signIn(t.app, user.email, password);
  const save = (token_id: string) => callApi(t.app, 'POST /accounts/create_card', { body: { token_id } }, { token });
  const profile = async () => (await callApi(t.app, 'GET /profile', {}, { token })).json();
  return { user, save, profile };
}

const calls = (path: string, guid: string) => stripe.seen.filter((s) => s.method === 'POST' && s.path === path && (s.idempotencyKey ?? '').includes(guid));

describe('cards through Stripe', () => {
  it('tells the app to show Stripe with its publishable key, and offers no sandbox field', async () => {
    expect((await callApi(t.app, 'GET /payments/config', {})).json()).toEqual({ provider: 'stripe', publishable_key: 'pk_test_lab' });
    // No card at all (outside the contract): the point is that with Stripe the call does not exist.
    const noCard = {} as InputOf<Contract['POST /sandbox/tokens']>['body'];
    expect((await callApi(t.app, 'POST /sandbox/tokens', { body: noCard })).status).toBe(404);
  });

  it('makes one Stripe customer per photographer and saves each card through a SetupIntent, with idempotency keys', async () => {
    const { user, save, profile } = await photographer();
    const first = await save('tok_visa');
    expect(first.status).toBe(200);
    expect(first.json().cards.data[0]?.masked_card).toBe('VISA •••• 4242');
    const customer = first.json().user.stripe_customer_id;
    expect(customer).toMatch(/^cus_stub/);
    expect((await save('tok_mastercard')).status).toBe(200);

    const customerCalls = calls('/v1/customers', user.guid);
    expect(customerCalls).toHaveLength(1);
    expect(customerCalls[0]?.body.get('email')).toBe(user.email);
    expect(customerCalls[0]?.idempotencyKey).toBe(`customer-${user.guid}`);
    expect(customerCalls[0]?.auth).toBe('Bearer sk_test_lab');
    const methods = calls('/v1/payment_methods', user.guid);
    expect(methods.map((s) => [s.body.get('type'), s.body.get('card[token]'), s.idempotencyKey])).toEqual([
      ['card', 'tok_visa', `payment-method-${user.guid}-tok_visa`],
      ['card', 'tok_mastercard', `payment-method-${user.guid}-tok_mastercard`],
    ]);
    const setups = calls('/v1/setup_intents', user.guid);
    expect(setups).toHaveLength(2);
    expect(Object.fromEntries(setups[0]?.body ?? [])).toMatchObject({ customer, confirm: 'true', usage: 'off_session', 'allowed_payment_method_types[0]': 'card' });
    expect(setups[0]?.idempotencyKey).toBe(`setup-${user.guid}-tok_visa`);
    // Saved as the PaymentMethods, each set up on the photographer's customer; no legacy source.
    const saved = [...stripe.paymentMethods].filter(([, m]) => m.customer === customer).map(([id]) => id);
    expect(saved).toEqual(setups.map((s) => s.body.get('payment_method')));
    expect(stripe.seen.filter((s) => s.path.endsWith('/sources'))).toEqual([]);
    expect((await profile()).cards.data.map((c) => c.masked_card)).toEqual(['VISA •••• 4242', 'MASTERCARD •••• 4444']);
  });

  it("a card declined as it is set up is never saved nor primary, and the answer says why in Stripe's words", async () => {
    const { save, profile } = await photographer();
    const res = await save('tok_chargeDeclined');
    expect(res.status).toBe(402);
    expect(expectErrorBody(res.json(), 402)).toMatchObject({ class_name: 'CardError', message: 'Your card was declined.' });
    expect(await profile()).toMatchObject({ cards: { data: [] }, default_card: null });
    // A good card afterwards is the primary one.
    const good = await save('tok_visa');
    expect(good.json().default_card).toBe(good.json().cards.data[0]?.id);
  });

  it('a card that needs its bank to confirm it (3-D Secure) is refused with the reason, and not saved', async () => {
    const { save, profile } = await photographer();
    const res = await save('tok_threeDSecure2Required');
    expect(res.status).toBe(402);
    expect(expectErrorBody(res.json(), 402).message).toBe(NEEDS_BANK_CONFIRMATION);
    expect(await profile()).toMatchObject({ cards: { data: [] }, default_card: null });
  });

  it('a token Stripe does not know is refused in its words', async () => {
    const { save } = await photographer();
    const res = await save('tok_unknown');
    expect(res.status).toBe(402);
    expect(expectErrorBody(res.json(), 402).message).toBe("No such token: 'tok_unknown'");
  });
});
