import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logTransport, mailTransportFor } from '../../server/adapters/mail/mail-transport.ts';
import { loadConfig } from '../../server/config.ts';
import { callApi } from './contract-call.ts';
import { api, createTestApp, expectLogHygiene, type TestApp } from './helper.ts';
import { callAs } from './photo-helpers.ts';

/**
 * Logs never hold tokens, passwords or their hashes, reset codes, URL signatures or card data
 * (docs/lab-rules.md §6). The app runs with its real logger options at trace level, every line captured;
 * the flows below put each kind of secret through the API, and no line may show one.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { captureLogs: true });
});
afterAll(() => t.close());

const secrets: string[] = [];
const signUp = (body: { email: string; first_name: string; last_name: string; password: string }) =>
  callApi(t.app, 'POST /users', { body: { ...body, password_confirmation: body.password } });

describe('the log', () => {
  it('shows no secret of sign-up, sign-in, password reset, email and password change', async () => {
    const email = 'hygiene@studio.example';
    const password = 'first-secret-pass';
    secrets.push(password);
    const signup = await signUp({ email, first_name: 'Vivian', last_name: 'Maier', password });
    expect(signup.status).toBe(200);
    secrets.push(signup.json().token);
    const login = await callApi(t.app, 'POST /login', { body: { email, password } });
    secrets.push(login.json().token);
    expect((await callApi(t.app, 'POST /login', { body: { email, password: 'a-wrong-guess-pass' } })).status).toBe(401);
    secrets.push('a-wrong-guess-pass');

    expect((await callApi(t.app, 'POST /forgot_password', { body: { email } })).status).toBe(200);
    const code = /reset token is: ([A-Z0-9]{6})/.exec(t.printed.at(-1) ?? '')?.[1] ?? '';
    expect(code).toHaveLength(6);
    secrets.push(code);
    expect((await callApi(t.app, 'POST /validate_challenge_token', { body: { email, challenge_token: code } })).status).toBe(200);
    const second = 'second-secret-pass';
    const reset = await callApi(t.app, 'POST /reset_password', { body: { email, challenge_token: code, password: second, password_confirmation: second } });
    expect(reset.status).toBe(200);
    secrets.push(second, reset.json().token);

    const token = reset.json().token as string;
    const guid = reset.json().guid as string;
    const third = 'third-secret-pass';
    secrets.push(third);
    const changed = await callApi(t.app, 'PATCH /users/:guid', { params: { guid }, body: { password: third, password_confirmation: third, current_password: second } }, { token });
    expect(changed.status).toBe(200);
    const moved = await callApi(t.app, 'PATCH /update_user_email', { body: { email: 'moved@studio.example', password: third } }, { token });
    expect(moved.status).toBe(200);
    expectLogHygiene(t.logs, secrets);
  });

  it('shows no card number, CVC or card token', async () => {
    const signup = await signUp({ email: 'cards@studio.example', first_name: 'Lee', last_name: 'Miller', password: 'card-owner-pass' });
    const token = signup.json().token as string;
    secrets.push(token);
    const minted = await callApi(t.app, 'POST /sandbox/tokens', { body: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2031, cvc: '987' } });
    expect(minted.status).toBe(200);
    secrets.push('4242424242424242', '4242 4242 4242 4242', minted.json().id);
    const addCard = (token_id: string) => callAs(t.app, 'POST /accounts/create_card', { body: { token_id } }, { token });
    expect((await addCard(minted.json().id)).status).toBe(200);
    expect((await addCard('tok_visa')).status).toBe(200);
    expect((await callApi(t.app, 'POST /sandbox/tokens', { body: { number: '4000 0566 5566 5556', exp_month: 12, exp_year: 2031, cvc: '987' } })).status).toBeLessThan(500);
    secrets.push('4000056655665556');
    expectLogHygiene(t.logs, secrets);
  });

  it('shows signed storage URLs and a token sent in the query without their secrets', async () => {
    const signup = await signUp({ email: 'urls@studio.example', first_name: 'Berenice', last_name: 'Abbott', password: 'url-owner-pass' });
    const { token, guid } = signup.json() as { token: string; guid: string };
    secrets.push(token);
    const presign = await callAs(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid }, body: { guid, file_name: 'resale.pdf' } }, { token });
    const { signedUrl, key } = presign.json() as { signedUrl: string; key: string };
    secrets.push(new URL(signedUrl, 'http://x').searchParams.get('sig') ?? 'missing sig');
    const put = await t.app.inject({ method: 'PUT', url: signedUrl, payload: Buffer.from('%PDF-1.4\n%%EOF\n'), headers: { 'content-type': 'application/pdf' } });
    expect(put.statusCode).toBe(200);
    const link = (await callAs(t.app, 'POST /accounts/blanket_certificate', { body: { key } }, { token })).json().blanket_certificate_of_resale_link;
    secrets.push(new URL(link, 'http://x').searchParams.get('sig') ?? 'missing sig');
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    // A token in the query (never how the app sends it, but a caller might) and S3-style signatures.
    await t.app.inject({ method: 'GET', url: api(`/profile?token=${token}`) });
    const amz = 'X-Amz-Credential=AKIAEXAMPLEKEY%2F20270101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';
    await t.app.inject({ method: 'GET', url: `/storage/photos/x.jpg?${amz}` });
    secrets.push('AKIAEXAMPLEKEY', '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0');
    // The request lines are there, with the secret parts blanked.
    expect(t.logs.some((l) => l.includes('/storage/incoming/certificates/') && l.includes('sig=[REDACTED]'))).toBe(true);
    expect(t.logs.some((l) => l.includes('/api/v2/profile?token=[REDACTED]'))).toBe(true);
    expectLogHygiene(t.logs, secrets);
  });

  it('shows a failed insert without its parameters (password hash, email, names)', async () => {
    const { sql } = await import('drizzle-orm');
    // Every new user fails to insert, as a full disk or a lost connection would make it.
    await t.db.execute(sql`create function refuse_users() returns trigger language plpgsql as $$ begin raise exception 'refused for the test'; end $$`);
    await t.db.execute(sql`create trigger refuse_users before insert on users for each row execute function refuse_users()`);
    try {
      const res = await signUp({ email: 'doomed.insert@studio.example', first_name: 'Imogen', last_name: 'Cunninghamson', password: 'doomed-insert-pass' });
      expect(res.status).toBe(500);
    } finally {
      await t.db.execute(sql`drop trigger refuse_users on users`);
      await t.db.execute(sql`drop function refuse_users()`);
    }
    secrets.push('doomed-insert-pass', 'doomed.insert@studio.example', 'Cunninghamson');
    // The failure is logged (what failed, where), only without the values.
    const failure = t.logs.find((l) => l.includes('request failed'));
    expect(failure).toContain('insert into \\"users\\"');
    expect(failure).toContain('refused for the test');
    expectLogHygiene(t.logs, secrets);
  });
});

describe('the request log', () => {
  it('is one structured line per request at info, its URL blanked where it holds a secret', async () => {
    const before = t.logs.length;
    expect((await t.app.inject({ method: 'GET', url: api('/status?token=one-line-secret') })).statusCode).toBe(200);
    const all = t.logs.slice(before);
    // This app logs at trace: its arrival line is debug (pino's level 20), scrubbed like the rest.
    const lines = all.filter((l) => (JSON.parse(l) as { level: number }).level >= 30);
    expect(lines).toHaveLength(1);
    expect(all.filter((l) => l.includes('incoming request'))).toHaveLength(1);
    expectLogHygiene(all, ['one-line-secret']);
    const line = JSON.parse(lines[0] ?? '{}') as { msg: string; req: { method: string; url: string }; res: { statusCode: number }; responseTime: number };
    expect(line).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: api('/status?token=[REDACTED]') }, res: { statusCode: 200 } });
    expect(line.responseTime).toBeGreaterThanOrEqual(0);
    expectLogHygiene(lines, ['one-line-secret']);
  });
});

describe('whatever the code logs', () => {
  it('a secret field or a hash in a message is blanked before the line is written', () => {
    const before = t.logs.length;
    t.app.log.info({ body: { password: 'field-secret-pass', card: { number: '4242424242424242', cvc: '321' } } }, 'a careless line');
    t.app.log.info('a hash in the message: $argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g');
    const lines = t.logs.slice(before);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('"password":"[REDACTED]"');
    expect(lines[0]).toContain('"cvc":"[REDACTED]"');
    expect(lines[1]).toContain('a hash in the message: [REDACTED]');
    expectLogHygiene(lines, ['field-secret-pass', '4242424242424242', 'c2FsdHNhbHQ']);
  });

  it("a secret's shape in a logged object's text field or a format argument is blanked", () => {
    const before = t.logs.length;
    t.app.log.info({ note: 'signed /storage/a.jpg?sig=field-sig-value', card: '4242 4242 4242 4242' }, 'a careless %s', 'hash $argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g');
    const lines = t.logs.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('sig=[REDACTED]');
    expect(lines[0]).toContain('"card":"[REDACTED]"');
    expect(lines[0]).toContain('a careless hash [REDACTED]');
    expectLogHygiene(lines, ['field-sig-value', '4242 4242 4242 4242', 'c2FsdHNhbHQ']);
  });
});

describe('mail without SMTP', () => {
  it('in production only says a mail was queued, to whom and about what, never its text', async () => {
    const printed: string[] = [];
    const transport = mailTransportFor(loadConfig({ NODE_ENV: 'production' }), (line) => printed.push(line));
    await transport.deliver({ from: 'lab@example.com', to: 'ansel@example.com', subject: 'Your password reset token', text: 'Your password reset token is: K7XQ2M' });
    expect(printed.join('\n')).toContain('ansel@example.com');
    expect(printed.join('\n')).toContain('Your password reset token');
    expect(printed.join('\n')).not.toContain('K7XQ2M');
  });

  it('in development prints the whole mail, so a developer can follow the link', async () => {
    const printed: string[] = [];
    const transport = mailTransportFor(loadConfig({}), (line) => printed.push(line));
    expect(transport.name).toBe(logTransport().name);
    await transport.deliver({ from: 'lab@example.com', to: 'ansel@example.com', subject: 'Your password reset token', text: 'Your password reset token is: K7XQ2M' });
    expect(printed.join('\n')).toContain('K7XQ2M');
  });
});
