import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '../../server/db/schema.ts';
import { LOGIN_LOCKOUT_MS, MAX_FAILED_LOGINS } from '../../server/services/auth-service.ts';
import { REFERRAL_CODE_RULE } from '../../src/domain/validation.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function photographer(fields: Parameters<typeof createUser>[1] = {}) {
  const { user, password } = await createUser(t.db, fields);
  return { user, password, token: await signIn(t.app, user.email, password) };
}
/** PATCH /users/{guid}: one form of the account page, sent as `token`'s session. */
const updateUser = (guid: string, token: string, body: InputOf<Contract['PATCH /users/:guid']>['body']) => callApi(t.app, 'PATCH /users/:guid', { params: { guid }, body }, { token });
const changeEmail = (token: string, body: { email: string; password: string }) => callApi(t.app, 'PATCH /update_user_email', { body }, { token });
const address = { street_address: '12 Darkroom Lane', city: 'Nashville', state: 'TN', zip: '37201' };

describe('GET /profile', () => {
  it('answers the profile shape for the signed-in photographer only', async () => {
    const me = await photographer({ businessName: 'North Light', phone: '6155550100' });
    const res = await callApi(t.app, 'GET /profile', {}, { token: me.token });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      user: { guid: me.user.guid, email: me.user.email, business_name: 'North Light', phone: '6155550100', credit_available: 0, referred_users: 0, referred_by_email: null },
      cards: { data: [] },
      addresses: { data: [] },
      default_card: null,
      default_address: null,
    });
    expect((await callApi(t.app, 'GET /profile', {})).status).toBe(401);
  });
});

describe('BASIC INFORMATION', () => {
  it('changes only the fields sent, keeps phones to digits, and refuses another account', async () => {
    const me = await photographer();
    const res = await updateUser(me.user.guid, me.token, { business_name: 'Silver Gelatin Co', phone: '6155550199', first_name: '' });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ user: { business_name: 'Silver Gelatin Co', phone: '6155550199', first_name: me.user.firstName } });
    expect(expectErrorBody((await updateUser(me.user.guid, me.token, { phone: '615-555' })).json(), 422).message).toBe('A phone number is 7 to 15 digits.');
    expect((await updateUser(me.user.guid, me.token, {})).status).toBe(422);
    const other = await photographer();
    expect((await updateUser(me.user.guid, other.token, { business_name: 'Mine now' })).status).toBe(404);
  });
});

describe('shipping addresses', () => {
  it('adds, makes primary, clears, and removes, one photographer at a time', async () => {
    const me = await photographer();
    const first = await callApi(t.app, 'POST /addresses', { body: address }, { token: me.token });
    expect(first.status).toBe(200);
    const firstGuid = first.json().addresses.data[0]?.guid ?? '';
    expect(first.json().default_address).toBe(firstGuid);
    expect(first.json().addresses.data[0]).toMatchObject({ street: '12 Darkroom Lane', city: 'Nashville', state: 'TN', state_province: 'TN', zip: '37201' });

    const second = await callApi(t.app, 'POST /addresses', { body: { ...address, street_address: '9 Fixer St', zip: '37203' } }, { token: me.token });
    const secondGuid = second.json().addresses.data[1]?.guid ?? '';
    expect(second.json().default_address).toBe(firstGuid);
    const makePrimary = (guid: string) => callApi(t.app, 'POST /accounts/update_default_address', { body: { make_primary: guid } }, { token: me.token });
    expect((await makePrimary(secondGuid)).json().default_address).toBe(secondGuid);
    expect((await makePrimary('')).json().default_address).toBeNull();
    await callApi(t.app, 'POST /accounts/update_default_address', { body: { make_primary: secondGuid } }, { token: me.token });
    const removed = await callApi(t.app, 'POST /accounts/remove_address', { body: { selected_item: secondGuid } }, { token: me.token });
    expect(removed.json().addresses.data.map((a) => a.guid)).toEqual([firstGuid]);
    expect(removed.json().default_address).toBeNull();

    const other = await photographer();
    expect((await callApi(t.app, 'POST /accounts/remove_address', { body: { selected_item: firstGuid } }, { token: other.token })).status).toBe(404);
    expect((await callApi(t.app, 'POST /accounts/update_default_address', { body: { make_primary: firstGuid } }, { token: other.token })).status).toBe(404);
    expect((await callApi(t.app, 'GET /profile', {}, { token: other.token })).json().addresses.data).toEqual([]);
  });

  it('answers 422, not a crash, for a primary choice that is no id', async () => {
    const me = await photographer();
    const res = await callApi(t.app, 'POST /accounts/update_default_address', { body: { make_primary: 'abc' } }, { token: me.token });
    expect(expectErrorBody(res.json(), 422).class_name).toBe('ValidationError');
  });

  it('refuses a zip that is not 5 digits, and saves nothing', async () => {
    const me = await photographer();
    const res = await callApi(t.app, 'POST /addresses', { body: { ...address, zip: '3720' } }, { token: me.token });
    expect(expectErrorBody(res.json(), 422).message).toBe('The zip code is 5 digits.');
    expect((await callApi(t.app, 'GET /profile', {}, { token: me.token })).json().addresses.data).toEqual([]);
  });
});

describe('CHANGE ACCOUNT EMAIL', () => {
  it('needs the right password and a free email, then ends every session', async () => {
    const me = await photographer();
    const other = await photographer();
    const wrong = await changeEmail(me.token, { email: 'new@studio.example', password: 'not-it-at-all' });
    expect(expectErrorBody(wrong.json(), 422).class_name).toBe('IncorrectPassword');
    const taken = await changeEmail(me.token, { email: other.user.email, password: me.password });
    expect(expectErrorBody(taken.json(), 422).message).toContain('already');

    const newEmail = `moved-${me.user.guid.slice(0, 8)}@studio.example`;
    expect((await changeEmail(me.token, { email: newEmail, password: me.password })).status).toBe(200);
    expect((await callApi(t.app, 'GET /profile', {}, { token: me.token })).status).toBe(401);
    await expect(signIn(t.app, newEmail, me.password)).resolves.toBeTruthy();
    await expect(signIn(t.app, me.user.email, me.password)).rejects.toThrow(/sign-in failed: 401/);
  });
});

describe('referrals and credit', () => {
  it('lists the photographers one referred with the credit each earned; admins see anyone', async () => {
    const referrer = await photographer({ referralCode: 'MARGARET9999' });
    const referred = await photographer({ firstName: 'Berenice', lastName: 'Abbott', businessName: 'Changing NY' });
    expect((await callApi(t.app, 'PATCH /update_new_user', { body: { code: 'MARGARET9999' } }, { token: referred.token })).status).toBe(200);
    await t.db.insert(creditLedger).values({ userGuid: referrer.user.guid, amountCents: 1234, reason: 'referral', referredUserGuid: referred.user.guid });

    const report = await callApi(t.app, 'GET /accounts/referrals', {}, { token: referrer.token });
    expect(report.json()).toEqual({ data: [{ name: 'Berenice Abbott', business_name: 'Changing NY', email: referred.user.email, credit_earned: 12.34 }] });
    expect((await callApi(t.app, 'GET /profile', {}, { token: referred.token })).json().user.referred_by_email).toBe(referrer.user.email);

    const own = await callApi(t.app, 'GET /photographers/:guid', { params: { guid: referrer.user.guid } }, { token: referrer.token });
    expect(own.json().data).toMatchObject({ user: { referred_users: 1, referral_code: 'MARGARET9999' }, referrals: [{ email: referred.user.email }] });
    expect((await callApi(t.app, 'GET /photographers/:guid', { params: { guid: referrer.user.guid } }, { token: referred.token })).status).toBe(404);
    const admin = await photographer({ isAdmin: true });
    expect((await callApi(t.app, 'GET /photographers/:guid', { params: { guid: referrer.user.guid } }, { token: admin.token })).status).toBe(200);
  });
});

describe('own referral code', () => {
  it('takes 3 to 30 letters and digits, in capitals, and refuses any other in the rule the field says', async () => {
    const me = await photographer();
    const set = (code: string) => updateUser(me.user.guid, me.token, { referral_code: code });
    for (const wrong of ['MY-CODE', 'ab', 'A'.repeat(31)]) expect(expectErrorBody((await set(wrong)).json(), 422).message).toBe(REFERRAL_CODE_RULE);
    const right = await set(' imogen7 ');
    expect(right.status).toBe(200);
    expect(right.json()).toMatchObject({ user: { referral_code: 'IMOGEN7' } });
  });
});

describe('referral credit', () => {
  it("earns the referrer 10% of a referred photographer's paid order subtotal, once per order", async () => {
    const { accrueReferralCredit } = await import('../../server/services/referral-service.ts');
    const { labOrders } = await import('../../server/db/schema.ts');
    const referrer = await photographer({ referralCode: 'ALFRED3333' });
    const referred = await photographer();
    await callApi(t.app, 'PATCH /update_new_user', { body: { code: 'ALFRED3333' } }, { token: referred.token });
    const [order] = await t.db
      .insert(labOrders)
      .values({ userGuid: referred.user.guid, orderName: 'First order', status: 'paid', paidAt: new Date(), subtotalCents: 12345, totalCents: 13345 })
      .returning();
    const accrue = (id: number) => t.db.transaction((tx) => accrueReferralCredit(tx, t.config.referralCreditPercent, id));
    expect(await accrue(order?.id ?? 0)).toBe(1235);
    expect(await accrue(order?.id ?? 0)).toBe(0);
    expect((await callApi(t.app, 'GET /profile', {}, { token: referrer.token })).json().user.credit_available).toBe(12.35);
    expect((await callApi(t.app, 'GET /accounts/referrals', {}, { token: referrer.token })).json().data[0]?.credit_earned).toBe(12.35);

    const [unpaid] = await t.db.insert(labOrders).values({ userGuid: referred.user.guid, orderName: 'Still open', subtotalCents: 5000 }).returning();
    expect(await accrue(unpaid?.id ?? 0)).toBe(0);
  });
});

describe('PATCH /users/{guid} with a new password', () => {
  it('needs the current password, keeps this session and ends the others', async () => {
    const me = await photographer();
    const elsewhere = await signIn(t.app, me.user.email, me.password);
    const wrong = await updateUser(me.user.guid, me.token, { password: 'brand-new-pass', password_confirmation: 'brand-new-pass', current_password: 'guessing-it' });
    expect(expectErrorBody(wrong.json(), 422).class_name).toBe('IncorrectPassword');
    const short = await updateUser(me.user.guid, me.token, { password: 'short', password_confirmation: 'short', current_password: me.password });
    expect(expectErrorBody(short.json(), 422).message).toBe('Password fields must match and be at least 8 characters long.');
    const ok = await updateUser(me.user.guid, me.token, { password: 'brand-new-pass', password_confirmation: 'brand-new-pass', current_password: me.password, email: me.user.email });
    expect(ok.status).toBe(200);
    expect((await callApi(t.app, 'GET /profile', {}, { token: me.token })).status).toBe(200);
    expect((await callApi(t.app, 'GET /profile', {}, { token: elsewhere })).status).toBe(401);
    await expect(signIn(t.app, me.user.email, 'brand-new-pass')).resolves.toBeTruthy();
    const other = await photographer();
    expect((await updateUser(me.user.guid, other.token, { password: 'hijack-pass', password_confirmation: 'hijack-pass', current_password: other.password })).status).toBe(404);
  });
});

describe('guessing the current password from inside a session', () => {
  const wrongEmailChange = (me: { token: string }) => changeEmail(me.token, { email: 'elsewhere@studio.example', password: 'a-wrong-guess' });
  const wrongPasswordChange = (me: { token: string; user: { guid: string } }) =>
    updateUser(me.user.guid, me.token, { password: 'brand-new-pass', password_confirmation: 'brand-new-pass', current_password: 'a-wrong-guess' });

  it('counts toward the sign-in lockout: after 10 wrong tries in a row the account locks for 15 minutes', async () => {
    const me = await photographer();
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      const res = await (i % 2 ? wrongEmailChange(me) : wrongPasswordChange(me));
      expect(expectErrorBody(res.json(), 422).class_name).toBe('IncorrectPassword');
    }
    // Locked: even the right password is refused, in the session and at sign-in.
    const locked = await changeEmail(me.token, { email: 'elsewhere@studio.example', password: me.password });
    expect(locked.status).toBe(429);
    expect(expectErrorBody(locked.json(), 429).message).toMatch(/^Too many wrong passwords for this account\. Wait 15 minutes/);
    expect(expectErrorBody((await wrongPasswordChange(me)).json(), 429).class_name).toBe('TooManyRequests');
    const signInLocked = await callApi(t.app, 'POST /login', { body: { email: me.user.email, password: me.password } });
    expect(expectErrorBody(signInLocked.json(), 429).message).toMatch(/Too many failed sign-in attempts/);
    t.clock.now = new Date(Date.now() + LOGIN_LOCKOUT_MS + 1000);
    try {
      const ok = await updateUser(me.user.guid, me.token, { password: 'brand-new-pass', password_confirmation: 'brand-new-pass', current_password: me.password });
      expect(ok.status).toBe(200);
    } finally {
      t.clock.now = new Date();
    }
  });

  it('shares one count with sign-in, and many tries at once cannot slip past it', async () => {
    const me = await photographer();
    for (let i = 0; i < 5; i++) {
      expect((await callApi(t.app, 'POST /login', { body: { email: me.user.email, password: 'a-wrong-guess' } })).status).toBe(401);
    }
    const burst = await Promise.all(Array.from({ length: 30 }, () => wrongEmailChange(me)));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 422)).toHaveLength(MAX_FAILED_LOGINS - 5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - (MAX_FAILED_LOGINS - 5));
  });

  it('a right password ends the run of failures', async () => {
    const me = await photographer();
    for (let i = 0; i < MAX_FAILED_LOGINS - 1; i++) await wrongEmailChange(me);
    const other = await photographer();
    const taken = await changeEmail(me.token, { email: other.user.email, password: me.password });
    expect(expectErrorBody(taken.json(), 422).class_name).toBe('EmailInUse');
    for (let i = 0; i < MAX_FAILED_LOGINS - 1; i++) expect((await wrongEmailChange(me)).status).toBe(422);
  });
});
