import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

/**
 * Requests racing for one thing the database keeps unique get the answer a single request gets:
 * one wins, the others are refused in words (422), never a 500 from the unique index. A check
 * before the write cannot see a write racing it; the index decides and the refusal names it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const RACERS = 12;
async function photographers(n: number) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const u = await createUser(t.db);
      return { ...u, token: await signIn(t.app, u.user.email, u.password) };
    }),
  );
}
const statusesOf = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

describe('races for one unique thing', () => {
  it('photographers claiming one referral code at once: one has it, the others are told it is in use', async () => {
    const racers = await photographers(RACERS);
    const answers = await Promise.all(
      racers.map((r) =>
        callApi(t.app, 'PATCH /users/:guid', { params: { guid: r.user.guid }, body: { referral_code: 'SAMECODE1' } }, { token: r.token, headers: { 'idempotency-key': `ref-${r.user.guid}` } }),
      ),
    );
    expect(statusesOf(answers)).toEqual([200, ...Array(RACERS - 1).fill(422)]);
    for (const a of answers.filter((x) => x.status === 422)) expect(expectErrorBody(a.json(), 422).message).toBe('This referral code is already in use.');
  });

  it('accounts changing to one email at once: one has it, the others are told it is in use', async () => {
    const racers = await photographers(RACERS);
    const answers = await Promise.all(
      racers.map((r) =>
        callApi(t.app, 'PATCH /update_user_email', { body: { email: 'contested@studio.example', password: r.password } }, { token: r.token, headers: { 'idempotency-key': `mail-${r.user.guid}` } }),
      ),
    );
    expect(statusesOf(answers)).toEqual([200, ...Array(RACERS - 1).fill(422)]);
    for (const a of answers.filter((x) => x.status === 422)) expect(expectErrorBody(a.json(), 422).class_name).toBe('EmailInUse');
  });

  it("the TEST MODE card field's single-use token saves one card however many calls send it at once", async () => {
    const [me] = await photographers(1);
    if (!me) throw new Error('no photographer');
    const minted = await callApi(t.app, 'POST /sandbox/tokens', { body: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2031, cvc: '123' } });
    const token = minted.json().id;
    const answers = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        callApi(t.app, 'POST /accounts/create_card', { body: { token_id: token } }, { token: me.token, headers: { 'idempotency-key': `card-${i}` } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(expectErrorBody(a.json(), 402).message).toBe('This card could not be read. Please enter it again.');
    const profile = await callApi(t.app, 'GET /profile', {}, { token: me.token });
    expect(profile.json().cards.data).toHaveLength(1);
  });
});
