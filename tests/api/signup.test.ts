import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let n = 0;
const newPhotographer = (over: Record<string, unknown> = {}) => ({
  email: `new${++n}@studio.example`,
  first_name: 'Dorothea',
  last_name: 'Lange',
  website: 'https://www.instagram.com/dorothea',
  password: 'long-enough-1',
  password_confirmation: 'long-enough-1',
  ...over,
});
/** Sign-up step 1 of a new photographer, as the page calls it. */
const signUp = (body = newPhotographer()) => callApi(t.app, 'POST /users', { body });
const userByEmail = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0];

describe('POST /users (sign-up step 1)', () => {
  it('creates the photographer and signs them in, with a referral code of their own', async () => {
    const body = newPhotographer();
    const res = await callApi(t.app, 'POST /users', { body });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ email: body.email, name: 'Dorothea Lange', business_name: '', is_admin: false, token: expect.any(String) });
    const row = await userByEmail(body.email);
    expect(row?.socialMediaUrl).toBe(body.website);
    expect(row?.businessUrl).toBeNull();
    expect(row?.referralCode).toMatch(/^DOROTHEA\d{4}$/);
    expect(row?.termsAcceptedAt).toBeInstanceOf(Date);
    const list = await callApi(t.app, 'GET /lab_orders', { query: {} }, { token: res.json().token });
    expect(list.status).toBe(200);
  });

  it("refuses an email in use, in the spec's words, whatever its case", async () => {
    const body = newPhotographer();
    await signUp(body);
    const again = await signUp({ ...newPhotographer(), email: body.email.toUpperCase() });
    expect(again.status).toBe(422);
    expect(expectErrorBody(again.json(), 422).message).toBe('Email already in use. Please login or reset your password.');
  });

  it('refuses short or mismatched passwords and saves nothing', async () => {
    for (const over of [{ password: 'short', password_confirmation: 'short' }, { password_confirmation: 'something-else' }]) {
      const body = newPhotographer(over);
      const res = await signUp(body);
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toBe('Password fields must match and be at least 8 characters long.');
      expect(await userByEmail(body.email)).toBeUndefined();
    }
  });

  it('refuses a bad email and missing names', async () => {
    expect((await signUp(newPhotographer({ email: 'not-an-email' }))).status).toBe(422);
    const res = await signUp(newPhotographer({ first_name: '  ' }));
    expect(expectErrorBody(res.json(), 422).message).toBe('Enter your first name.');
  });
});

describe('lookups', () => {
  it('check_for_email: 200 when the email has an account, 404 with the spec message when not', async () => {
    const { user } = await createUser(t.db);
    expect((await callApi(t.app, 'POST /check_for_email', { body: { email: user.email.toUpperCase() } })).json()).toEqual({ success: true });
    const missing = await callApi(t.app, 'POST /check_for_email', { body: { email: 'nobody@nowhere.example' } });
    expect(missing.status).toBe(404);
    expect(expectErrorBody(missing.json(), 404).message).toBe('Email does not exist. Please register as a new user.');
  });

  it('check_referral_code: 200 for a code in use (any case), 404 otherwise, no token needed', async () => {
    await createUser(t.db, { referralCode: 'ANSEL1234' });
    expect((await callApi(t.app, 'POST /check_referral_code', { body: { code: 'ansel1234' } })).status).toBe(200);
    const missing = await callApi(t.app, 'POST /check_referral_code', { body: { code: 'NOPE' } });
    expect(missing.status).toBe(404);
    expect(expectErrorBody(missing.json(), 404).message).toBe('This referral code does not exist.');
  });
});

describe('PATCH /update_new_user (steps 2 and 3)', () => {
  it('attaches the referring photographer once, and never yourself', async () => {
    const referrer = await createUser(t.db, { referralCode: 'IMOGEN5555' });
    const me = await signUp();
    const token = me.json().token as string;
    expect((await callApi(t.app, 'PATCH /update_new_user', { body: { code: 'imogen5555' } }, { token })).status).toBe(200);
    expect((await userByEmail(me.json().email))?.referredByGuid).toBe(referrer.user.guid);
    const unknown = await callApi(t.app, 'PATCH /update_new_user', { body: { code: 'WHO' } }, { token });
    expect(expectErrorBody(unknown.json(), 422).message).toBe('This referral code does not exist.');
    const other = await createUser(t.db, { referralCode: 'OTHER7777' });
    expect(other).toBeTruthy();
    expect((await callApi(t.app, 'PATCH /update_new_user', { body: { code: 'OTHER7777' } }, { token })).status).toBe(422);
    const own = (await userByEmail(me.json().email))?.referralCode ?? '';
    const self = await signUp();
    const selfRow = await userByEmail(self.json().email);
    expect((await callApi(t.app, 'PATCH /update_new_user', { body: { code: selfRow?.referralCode ?? '' } }, { token: self.json().token })).status).toBe(422);
    expect(own).not.toBe('');
  });

  it('a Tennessee business cannot finish without a PDF certificate; with one it can', async () => {
    const me = await signUp();
    const token = me.json().token as string;
    const row = await userByEmail(me.json().email);
    const refused = await callApi(t.app, 'PATCH /update_new_user', { body: { tn_business: true } }, { token });
    expect(refused.status).toBe(422);
    expect(expectErrorBody(refused.json(), 422).message).toMatch(/blanket certificate of resale/);
    expect((await userByEmail(me.json().email))?.tnBusiness).toBeNull();

    const guid = String(row?.guid);
    const presign = await callApi(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid }, body: { guid, file_name: 'certificate.pdf' } }, { token });
    expect(presign.status).toBe(200);
    const { signedUrl, key } = presign.json() as { signedUrl: string; key: string };
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
    const put = await t.app.inject({ method: 'PUT', url: signedUrl, payload: pdf, headers: { 'content-type': 'application/pdf' } });
    expect(put.statusCode).toBe(200);
    const done = await callApi(t.app, 'POST /accounts/blanket_certificate', { body: { key } }, { token });
    expect(done.status).toBe(200);
    const link = done.json().blanket_certificate_of_resale_link;
    const download = await t.app.inject({ method: 'GET', url: link });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(pdf)).toBe(true);

    expect((await callApi(t.app, 'PATCH /update_new_user', { body: { tn_business: true } }, { token })).status).toBe(200);
    expect((await userByEmail(me.json().email))?.tnBusiness).toBe(true);
  });

  it('answers NO for Tennessee without a certificate', async () => {
    const me = await signUp();
    expect((await callApi(t.app, 'PATCH /update_new_user', { body: { tn_business: false } }, { token: me.json().token })).status).toBe(200);
    expect((await userByEmail(me.json().email))?.tnBusiness).toBe(false);
  });

  it('needs a session', async () => {
    const res = await callApi(t.app, 'PATCH /update_new_user', { body: { tn_business: false } });
    expect(res.status).toBe(401);
  });
});

describe('certificate uploads', () => {
  async function presigned() {
    const { user, password } = await createUser(t.db);
    const token = await signIn(t.app, user.email, password);
    const res = await callApi(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid: user.guid }, body: { guid: user.guid, file_name: 'resale.pdf' } }, { token });
    return { user, token, ...(res.json() as { signedUrl: string; key: string }) };
  }

  it('checks the file by content: a renamed image is refused and not kept', async () => {
    const { token, signedUrl, key, user } = await presigned();
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expect((await t.app.inject({ method: 'PUT', url: signedUrl, payload: png, headers: { 'content-type': 'application/pdf' } })).statusCode).toBe(200);
    const res = await callApi(t.app, 'POST /accounts/blanket_certificate', { body: { key } }, { token });
    expect(res.status).toBe(422);
    expect(expectErrorBody(res.json(), 422).message).toBe('The blanket certificate of resale must be a PDF file. This file is a PNG image.');
    expect((await t.db.select().from(users).where(eq(users.guid, user.guid)))[0]?.blanketCertificateKey).toBeNull();
  });

  it("refuses a tampered or expired link, another content type, and another user's upload", async () => {
    const { signedUrl, key } = await presigned();
    const pdf = Buffer.from('%PDF-1.7\n');
    const tampered = signedUrl.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await t.app.inject({ method: 'PUT', url: tampered, payload: pdf, headers: { 'content-type': 'application/pdf' } })).statusCode).toBe(403);
    const wrongType = await t.app.inject({ method: 'PUT', url: signedUrl, payload: pdf, headers: { 'content-type': 'image/jpeg' } });
    expect(wrongType.statusCode).toBe(403);
    expectErrorBody(wrongType.json(), 403);
    t.clock.now = new Date(Date.now() + 2 * 60 * 60 * 1000);
    try {
      const expired = await t.app.inject({ method: 'PUT', url: signedUrl, payload: pdf, headers: { 'content-type': 'application/pdf' } });
      expect(expired.statusCode).toBe(403);
      expect(expectErrorBody(expired.json(), 403).message).toBe('This link has expired. Please try again.');
    } finally {
      t.clock.now = new Date();
    }
    const other = await presigned();
    const res = await callApi(t.app, 'POST /accounts/blanket_certificate', { body: { key } }, { token: other.token });
    expect(res.status).toBe(404);
    const foreignPresign = await callApi(
      t.app,
      'POST /lab_orders/:guid/create_presigned_url',
      { params: { guid: other.user.guid }, body: { guid: '6f1c7a52-2b8e-4c55-9d0e-000000000000', file_name: 'x.pdf' } },
      { token: other.token },
    );
    expect(foreignPresign.status).toBe(404);
  });

  it('refuses a certificate that is not named .pdf, and an upload over the size limit', async () => {
    const { user, token, signedUrl } = await presigned();
    const named = await callApi(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid: user.guid }, body: { guid: user.guid, file_name: 'scan.jpg' } }, { token });
    expect(named.status).toBe(422);
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-');
    const res = await t.app.inject({ method: 'PUT', url: signedUrl, payload: big, headers: { 'content-type': 'application/pdf' } });
    expect(res.statusCode).toBe(413);
  });
});

describe('PATCH /users/{guid} with a referral code', () => {
  it('lets a photographer choose a free code, refuses one in use, and keeps others out', async () => {
    const me = await signUp();
    const { token, guid } = me.json() as { token: string; guid: string };
    const ok = await callApi(t.app, 'PATCH /users/:guid', { params: { guid }, body: { referral_code: 'light2027' } }, { token });
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ user: { guid, referral_code: 'LIGHT2027', referred_users: 0 } });
    expect((await callApi(t.app, 'POST /check_referral_code', { body: { code: 'LIGHT2027' } })).status).toBe(200);

    const other = await signUp();
    const theirs = { token: other.json().token };
    const taken = await callApi(t.app, 'PATCH /users/:guid', { params: { guid: other.json().guid }, body: { referral_code: 'Light2027' } }, theirs);
    expect(expectErrorBody(taken.json(), 422).message).toBe('This referral code is already in use.');
    expect((await callApi(t.app, 'PATCH /users/:guid', { params: { guid: other.json().guid }, body: { referral_code: 'ab' } }, theirs)).status).toBe(422);
    expect((await callApi(t.app, 'PATCH /users/:guid', { params: { guid }, body: { referral_code: 'MINE' } }, theirs)).status).toBe(404);
  });
});
