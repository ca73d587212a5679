import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../server/db/schema.ts';
import { RESET_TOKEN_TTL_MS } from '../../server/services/password-reset-service.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://orders.lab.example' });
});
afterAll(() => t.close());

const forgot = (email: string) => callApi(t.app, 'POST /forgot_password', { body: { email } });
const validate = (email: string, challengeToken: string) => callApi(t.app, 'POST /validate_challenge_token', { body: { email, challenge_token: challengeToken } });

/** Reads the token out of the last mail to this address as it was delivered, as the photographer would. */
async function mailedToken(email: string): Promise<string> {
  const last = t.printed.filter((m) => m.startsWith(`Mail to ${email}:`)).at(-1);
  const match = /reset token is: ([A-Z0-9]{6})/.exec(last ?? '');
  if (!match?.[1]) throw new Error(`no token mailed to ${email}`);
  return match[1];
}

describe('forgot password → token by mail → reset', () => {
  it('mails a 6-character token through the outbox, which the log transport prints and marks sent', async () => {
    const { user } = await createUser(t.db);
    expect((await callApi(t.app, 'POST /forgot_password', { body: { email: user.email } })).json()).toEqual({ success: true });
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(mail).toMatchObject({ subject: 'Your password reset token', status: 'sent', attempts: 1 });
    expect(mail?.bodyText).toContain(`https://orders.lab.example/reset-password?email=${encodeURIComponent(user.email)}`);
    expect(t.printed.some((line) => line.includes(`Mail to ${user.email}`))).toBe(true);
    expect(await mailedToken(user.email)).toMatch(/^[A-Z2-9]{6}$/);
    // Delivered, the outbox keeps the mail without the token.
    const [kept] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(kept?.bodyText).toContain('Your password reset token is: ******');
  });

  it("answers 404 in the spec's words for an email without an account", async () => {
    const res = await forgot('nobody@nowhere.example');
    expect(res.status).toBe(404);
    expect(expectErrorBody(res.json(), 404).message).toBe('Email does not exist. Please register as a new user.');
  });

  it('validates the token with spaces and any case, resets the password, ends old sessions and signs in', async () => {
    const { user, password } = await createUser(t.db);
    const oldToken = await signIn(t.app, user.email, password);
    await forgot(user.email);
    const token = await mailedToken(user.email);
    const typed = `${token.slice(0, 3).toLowerCase()} ${token.slice(3)}`;
    expect((await callApi(t.app, 'POST /validate_challenge_token', { body: { email: user.email, challenge_token: typed } })).status).toBe(200);

    const mismatch = await callApi(t.app, 'POST /reset_password', { body: { email: user.email, challenge_token: typed, password: 'new-password-1', password_confirmation: 'new-password-2' } });
    expect(expectErrorBody(mismatch.json(), 422).message).toBe('Password fields must match and be at least 8 characters long.');

    const res = await callApi(t.app, 'POST /reset_password', { body: { email: user.email, challenge_token: typed, password: 'new-password-1', password_confirmation: 'new-password-1' } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ email: user.email, token: expect.any(String) });
    expect((await callApi(t.app, 'GET /lab_orders', { query: {} }, { token: oldToken })).status).toBe(401);
    expect((await callApi(t.app, 'GET /lab_orders', { query: {} }, { token: res.json().token })).status).toBe(200);
    expect((await callApi(t.app, 'POST /login', { body: { email: user.email, password } })).status).toBe(401);
    expect((await callApi(t.app, 'POST /login', { body: { email: user.email, password: 'new-password-1' } })).status).toBe(200);
    // Used once: the same token no longer works.
    const again = await validate(user.email, token);
    expect(expectErrorBody(again.json(), 404).message).toBe('Reset token either expired or is not valid for this email address.');
    // Nor does it set a password again: the same 404, which the API document lists for this call.
    const replay = await callApi(t.app, 'POST /reset_password', { body: { email: user.email, challenge_token: token, password: 'new-password-3', password_confirmation: 'new-password-3' } });
    expect(expectErrorBody(replay.json(), 404).message).toBe('Reset token either expired or is not valid for this email address.');
  });

  it('burns the token after 5 wrong tries', async () => {
    const { user } = await createUser(t.db);
    await forgot(user.email);
    const token = await mailedToken(user.email);
    for (let i = 0; i < 5; i++) {
      expect((await validate(user.email, 'ZZZZZZ')).status).toBe(404);
    }
    expect((await validate(user.email, token)).status).toBe(404);
  });

  it('parallel guesses share the 5 tries: the token is burnt all the same', async () => {
    const { user } = await createUser(t.db);
    await forgot(user.email);
    const token = await mailedToken(user.email);
    const guesses = await Promise.all(Array.from({ length: 8 }, () => validate(user.email, 'ZZZZZZ')));
    expect(guesses.every((g) => g.status === 404)).toBe(true);
    expect((await validate(user.email, token)).status).toBe(404);
  });

  it('a token expires after 30 minutes, and a new request replaces the old token', async () => {
    const { user } = await createUser(t.db);
    await forgot(user.email);
    const first = await mailedToken(user.email);
    await forgot(user.email);
    const second = await mailedToken(user.email);
    expect((await validate(user.email, first)).status).toBe(404);
    t.clock.now = new Date(Date.now() + RESET_TOKEN_TTL_MS + 1000);
    try {
      expect((await validate(user.email, second)).status).toBe(404);
    } finally {
      t.clock.now = new Date();
    }
  });

  it('a token is only good for its own email', async () => {
    const a = await createUser(t.db);
    const b = await createUser(t.db);
    await forgot(a.user.email);
    await forgot(b.user.email);
    const tokenA = await mailedToken(a.user.email);
    expect((await validate(b.user.email, tokenA)).status).toBe(404);
  });
});
