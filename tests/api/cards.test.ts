import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './contract-call.ts';
import { api, createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function photographer() {
  const { user, password } = await createUser(t.db);
  return { user, token: await signIn(t.app, user.email, password) };
}
const save = (token: string, tokenId: string) => callApi(t.app, 'POST /accounts/create_card', { body: { token_id: tokenId } }, { token });
const makePrimary = (token: string, id: string) => callApi(t.app, 'POST /accounts/update_default_card', { body: { make_primary: id } }, { token });
const remove = (token: string, id: string) => callApi(t.app, 'POST /accounts/remove_card', { body: { selected_item: id } }, { token });
const mint = (card: { number: string; exp_year?: number }) => callApi(t.app, 'POST /sandbox/tokens', { body: { exp_month: 12, exp_year: 2031, cvc: '123', ...card } });

describe('the sandbox card field', () => {
  it("takes Stripe's test card numbers and refuses everything else", async () => {
    const ok = await mint({ number: '4242 4242 4242 4242' });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ id: expect.stringMatching(/^tok_sandbox_/), brand: 'visa', last4: '4242' });
    const real = await mint({ number: '4111 1111 1111 1111' });
    expect(real.status).toBe(402);
    expect(expectErrorBody(real.json(), 402).message).toMatch(/^TEST MODE/);
    expect(expectErrorBody((await mint({ number: '4242 4242 4242 4241' })).json(), 402).message).toBe('Your card number is incorrect.');
    expect(expectErrorBody((await mint({ number: '4242424242424242', exp_year: 2020 })).json(), 402).message).toBe("Your card's expiration date is in the past.");
  });

  it('says which card field to show', async () => {
    const res = await callApi(t.app, 'GET /payments/config', {});
    expect(res.json()).toEqual({ provider: 'sandbox', publishable_key: null });
  });
});

describe('saved cards', () => {
  it('saves cards (first one primary), shows only a mask, switches the primary, and removes one by one', async () => {
    const me = await photographer();
    const token = (await mint({ number: '5555555555554444' })).json().id;
    const first = await save(me.token, token);
    expect(first.status).toBe(200);
    expect(first.json().cards.data).toEqual([{ id: expect.any(String), masked_card: 'MASTERCARD •••• 4444' }]);
    expect(first.json().default_card).toBe(first.json().cards.data[0]?.id);
    // A token is good once.
    expect((await save(me.token, token)).status).toBe(402);

    const second = await save(me.token, 'tok_visa');
    const [a, b] = second.json().cards.data;
    expect(second.json().default_card).toBe(a?.id);
    expect((await makePrimary(me.token, b?.id ?? '')).json().default_card).toBe(b?.id);

    const other = await photographer();
    expect((await remove(other.token, b?.id ?? '')).status).toBe(404);
    expect((await makePrimary(other.token, b?.id ?? '')).status).toBe(404);

    const afterRemove = await remove(me.token, b?.id ?? '');
    expect(afterRemove.json().cards.data.map((c) => c.id)).toEqual([a?.id]);
    expect(afterRemove.json().default_card).toBeNull();
  });

  it('checks a card as it is saved: a card that will be declined is never saved, nor primary; one declined only when charged saves', async () => {
    const me = await photographer();
    const declined = await save(me.token, 'tok_chargeDeclined');
    expect(expectErrorBody(declined.json(), 402).message).toBe('Your card was declined.');
    const typed = await mint({ number: '4000 0000 0000 0002' });
    expect(typed.status).toBe(200);
    const refused = await save(me.token, typed.json().id);
    expect(expectErrorBody(refused.json(), 402).message).toBe('Your card was declined.');
    const profile = await callApi(t.app, 'GET /profile', {}, { token: me.token });
    expect(profile.json().cards.data).toEqual([]);
    expect(profile.json().default_card).toBeNull();

    // 4000 0000 0000 0341 (tok_chargeCustomerFail) saves; its charges are declined (checkout's tests).
    const later = await save(me.token, (await mint({ number: '4000 0000 0000 0341' })).json().id);
    expect(later.json().cards.data[0]?.masked_card).toBe('VISA •••• 0341');
    expect((await save(me.token, 'tok_chargeCustomerFail')).status).toBe(200);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'POST', url: api('/accounts/create_card'), payload: { token_id: 'tok_visa' } })).statusCode).toBe(401);
  });
});
