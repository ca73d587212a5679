import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses, users } from '../../server/db/schema.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';
import { api, createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

/**
 * The probe's findings about input (hardening issue): text with control characters, numbers out
 * of the database's range, upper-case guids and two updates in one body.
 */
let t: TestApp;
let me: { guid: string; email: string; password: string; token: string };
beforeAll(async () => {
  t = await createTestApp();
  // A route with a multi-line field, as line-item notes will be.
  t.app.post(api('/test-notes'), { config: { public: true, multilineText: ['notes'] } }, (request) => request.body);
  const { user, password } = await createUser(t.db, { referralCode: 'NULREF1' });
  me = { guid: user.guid, email: user.email, password, token: await signIn(t.app, user.email, password) };
});
afterAll(() => t.close());

type UserUpdate = InputOf<Contract['PATCH /users/:guid']>['body'];

/** Raw bodies for the hostile text below, which no typed call would send. */
const send = (method: 'POST' | 'PATCH' | 'GET', path: string, payload?: object, token?: string) =>
  t.app.inject({ method, url: api(path), headers: token ? { token } : {}, ...(payload ? { payload } : {}) });

describe('text with control characters or broken UTF-16', () => {
  const NUL = 'a\u0000b';
  // Every field the probe answered 500 for, anonymous and signed in.
  const cases: { name: string; method: 'POST' | 'PATCH'; path: () => string; body: () => object; signedIn?: boolean }[] = [
    { name: 'login email', method: 'POST', path: () => '/login', body: () => ({ email: NUL, password: 'whatever-1' }) },
    { name: 'sign-up first name', method: 'POST', path: () => '/users', body: () => ({ email: 'nul1@studio.example', first_name: NUL, last_name: 'L', password: 'long-enough-1', password_confirmation: 'long-enough-1' }) },
    { name: 'sign-up website', method: 'POST', path: () => '/users', body: () => ({ email: 'nul2@studio.example', first_name: 'D', last_name: 'L', website: `https://${NUL}.example`, password: 'long-enough-1', password_confirmation: 'long-enough-1' }) },
    { name: 'check_for_email', method: 'POST', path: () => '/check_for_email', body: () => ({ email: NUL }) },
    { name: 'check_referral_code', method: 'POST', path: () => '/check_referral_code', body: () => ({ code: NUL }) },
    { name: 'forgot_password', method: 'POST', path: () => '/forgot_password', body: () => ({ email: NUL }) },
    { name: 'validate_challenge_token', method: 'POST', path: () => '/validate_challenge_token', body: () => ({ email: NUL, challenge_token: 'ABC123' }) },
    { name: 'reset_password', method: 'POST', path: () => '/reset_password', body: () => ({ email: NUL, challenge_token: 'ABC123', password: 'long-enough-1', password_confirmation: 'long-enough-1' }) },
    { name: 'shop code', method: 'POST', path: () => '/shop_connections', body: () => ({ code: NUL, shop: 'my-shop.myshopify.com' }) },
    { name: 'profile first name', method: 'PATCH', path: () => `/users/${me.guid}`, body: () => ({ first_name: NUL }), signedIn: true },
    { name: 'own referral code', method: 'PATCH', path: () => `/users/${me.guid}`, body: () => ({ referral_code: NUL }), signedIn: true },
    { name: 'referral code at sign-up', method: 'PATCH', path: () => '/update_new_user', body: () => ({ code: NUL }), signedIn: true },
    { name: 'address street', method: 'POST', path: () => '/addresses', body: () => ({ street_address: NUL, city: 'Nashville', state: 'TN', zip: '37201' }), signedIn: true },
    { name: 'card token', method: 'POST', path: () => '/accounts/create_card', body: () => ({ token_id: NUL }), signedIn: true },
    { name: 'new login email', method: 'PATCH', path: () => '/update_user_email', body: () => ({ email: `x${NUL}@example.com`, password: me.password }), signedIn: true },
  ];

  it.each(cases)('a NUL byte in the $name: 400 with the error body, nothing stored', async ({ method, path, body, signedIn }) => {
    const before = await t.db.select().from(users).where(eq(users.guid, me.guid));
    const res = await send(method, path(), body(), signedIn ? me.token : undefined);
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res.json(), 400).message).toMatch(/control characters/);
    expect(await t.db.select().from(users).where(eq(users.guid, me.guid))).toEqual(before);
  });

  it('other control characters, line breaks in one-line fields, and lone surrogates are refused too', async () => {
    for (const bad of ['a\u0007b', 'line\nbreak', 'tab\there', 'del\u007f', 'c1\u0085', 'half \ud800 pair', 'other half \udc00']) {
      const res = await send('PATCH', `/users/${me.guid}`, { business_name: bad }, me.token);
      expect([bad, res.statusCode]).toEqual([bad, 400]);
      const body = expectErrorBody(res.json(), 400);
      expect(body.message).toBe('The business name contains control characters or broken text. Please remove them and try again.');
      expect(body.more_info).toEqual(['business_name']);
    }
    // Emoji (a surrogate pair), accents and right-to-left text are ordinary text.
    const ok = await send('PATCH', `/users/${me.guid}`, { business_name: 'Lumière 📷 סטודיו' }, me.token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.business_name).toBe('Lumière 📷 סטודיו');
  });

  it('line breaks and tabs only in the fields a route names multi-line', async () => {
    const ok = await send('POST', '/test-notes', { notes: 'Crop tight.\r\nMatte\tfinish.' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ notes: 'Crop tight.\r\nMatte\tfinish.' });
    expect((await send('POST', '/test-notes', { notes: 'bell\u0007' })).statusCode).toBe(400);
    expect((await send('POST', '/test-notes', { notes: 'half \ud800' })).statusCode).toBe(400);
    const title = await send('POST', '/test-notes', { notes: 'fine', title: 'two\nlines' });
    expect(title.statusCode).toBe(400);
    expect(expectErrorBody(title.json(), 400).more_info).toEqual(['title']);
  });

  it('in a field name, a nested value, the query string or a path parameter', async () => {
    const key = await send('POST', '/addresses', { street_address: '1 Main St', city: 'Nashville', state: 'TN', zip: '37201', ['x\u0000']: 1 }, me.token);
    expect(key.statusCode).toBe(400);
    expectErrorBody(key.json(), 400);
    const nested = await send('POST', '/price_quote', { print_size: 'x', finishing_service_details: ['ok', 'b\u0000d'], quantity: 1 });
    expect(nested.statusCode).toBe(400);
    expect(expectErrorBody(nested.json(), 400).more_info).toEqual(['finishing_service_details.1']);
    const query = await t.app.inject({ method: 'GET', url: api('/profile?x=%00'), headers: { token: me.token } });
    expect(query.statusCode).toBe(400);
    expectErrorBody(query.json(), 400);
    const param = await t.app.inject({ method: 'GET', url: api('/photographers/%00'), headers: { token: me.token } });
    expect(param.statusCode).toBe(400);
    expectErrorBody(param.json(), 400);
    expect(await t.db.select().from(addresses).where(eq(addresses.userGuid, me.guid))).toEqual([]);
  });
});

describe('numbers the database can hold', () => {
  it('an expiry year beyond a 32-bit integer is a validation error, not a crash', async () => {
    const res = await callApi(t.app, 'POST /sandbox/tokens', { body: { number: '4242424242424242', exp_month: 1, exp_year: 2147483648, cvc: '123' } });
    expect(res.status).toBe(422);
    expectErrorBody(res.json(), 422);
    const month = await callApi(t.app, 'POST /sandbox/tokens', { body: { number: '4242424242424242', exp_month: -2147483649, exp_year: 2031, cvc: '123' } });
    expect(month.status).toBe(422);
  });

  it('a sales report year far out of range', async () => {
    const res = await callApi(t.app, 'POST /accounts/generate_tax_report', { body: { year: 2 ** 53 } }, { token: me.token });
    expect(res.status).toBe(422);
    expectErrorBody(res.json(), 422);
  });
});

describe('guids in upper case are the same guids', () => {
  it("PATCH /users/{GUID} and GET /photographers/{GUID} find the caller's own account", async () => {
    const upper = me.guid.toUpperCase();
    const patched = await callApi(t.app, 'PATCH /users/:guid', { params: { guid: upper }, body: { last_name: 'Upper' } }, { token: me.token });
    expect(patched.status).toBe(200);
    expect(patched.json()).toMatchObject({ user: { last_name: 'Upper' } });
    const credit = await callApi(t.app, 'GET /photographers/:guid', { params: { guid: upper } }, { token: me.token });
    expect(credit.status).toBe(200);
    expect(credit.json().data.user.guid).toBe(me.guid);
    const code = await callApi(t.app, 'PATCH /users/:guid', { params: { guid: upper }, body: { referral_code: 'UPPERCASE1' } }, { token: me.token });
    expect(code.status).toBe(200);
    expect(code.json()).toMatchObject({ user: { guid: me.guid } });
  });

  it('a primary address chosen by its upper-case guid', async () => {
    const { user, password } = await createUser(t.db);
    const token = await signIn(t.app, user.email, password);
    const added = await callApi(t.app, 'POST /addresses', { body: { street_address: '1 Main St', city: 'Nashville', state: 'TN', zip: '37201' } }, { token });
    const guid = added.json().addresses.data[0]?.guid ?? '';
    const res = await callApi(t.app, 'POST /accounts/update_default_address', { body: { make_primary: guid.toUpperCase() } }, { token });
    expect(res.status).toBe(200);
    expect(res.json().default_address).toBe(guid);
  });
});

describe('one change per update call', () => {
  it('PATCH /users/{guid} with fields of two forms is refused and changes nothing', async () => {
    const before = (await t.db.select().from(users).where(eq(users.guid, me.guid)))[0];
    for (const body of [
      { referral_code: 'BOTHFORMS1', first_name: 'Half' },
      { first_name: 'Half', password: 'new-password-1', password_confirmation: 'new-password-1', current_password: me.password },
      { referral_code: 'BOTHFORMS2', password: 'new-password-1', password_confirmation: 'new-password-1', current_password: me.password },
      { first_name: 'Half', surprise: true },
    ]) {
      // Fields of two forms in one body: outside the contract on purpose.
      const res = await callApi(t.app, 'PATCH /users/:guid', { params: { guid: me.guid }, body: body as UserUpdate }, { token: me.token });
      expect([body, res.status]).toEqual([body, 422]);
      expect(expectErrorBody(res.json(), 422).message).toMatch(/^Send one change at a time/);
    }
    expect((await t.db.select().from(users).where(eq(users.guid, me.guid)))[0]).toEqual(before);
  });

  it('PATCH /update_new_user with a referral code and the Tennessee answer together is refused', async () => {
    const { user: referrer } = await createUser(t.db, { referralCode: 'TWOTYPES1' });
    const { user, password } = await createUser(t.db);
    const token = await signIn(t.app, user.email, password);
    // Both answers in one body: outside the contract on purpose.
    const both = { code: 'TWOTYPES1', tn_business: true } as unknown as InputOf<Contract['PATCH /update_new_user']>['body'];
    const res = await callApi(t.app, 'PATCH /update_new_user', { body: both }, { token });
    expect(res.status).toBe(422);
    expectErrorBody(res.json(), 422);
    const after = (await t.db.select().from(users).where(eq(users.guid, user.guid)))[0];
    expect(after?.referredByGuid).toBeNull();
    expect(after?.tnBusiness).toBeNull();
    expect(referrer.guid).toBeTruthy();
  });
});
