import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountCodes } from '../../server/db/schema.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';
import { expectErrorBody, type TestApp } from './helper.ts';
import { changed, change, payOrder, readyOrder } from './checkout-helpers.ts';
import { labWithAdmin, type Products } from './line-items-helpers.ts';
import { callAs, photographer } from './photo-helpers.ts';

/** Discount codes on the admin screen (issue 34): list with uses, create, pause, resume, expire. */
let t: TestApp;
let p: Products;
let admin: string;
let ann: string;
beforeAll(async () => {
  ({ t, p, admin } = await labWithAdmin());
  ({ token: ann } = await photographer(t));
});
afterAll(() => t.close());

let made = 0;
const fresh = () => `ADMIN-${(made += 1)}-${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
type NewCode = InputOf<Contract['POST /discount_codes']>['body'];
type CodeChange = InputOf<Contract['PATCH /discount_codes/:code']>['body'];
const asCaller = (as: string | null) => (as ? { token: as } : {});
const create = (body: NewCode, as: string | null = admin, key?: string) =>
  callApi(t.app, 'POST /discount_codes', { body }, { ...asCaller(as), ...(key ? { headers: { 'idempotency-key': key } } : {}) });
const patch = (code: string, body: CodeChange, as: string | null = admin) => callApi(t.app, 'PATCH /discount_codes/:code', { params: { code }, body }, asCaller(as));
const list = async () => {
  const res = await callApi(t.app, 'GET /discount_codes', {}, { token: admin });
  expect(res.status).toBe(200);
  return res.json().data;
};
const listed = async (code: string) => (await list()).find((c) => c.code === code);
const validate = (code: string) => callAs(t.app, 'POST /validate_discount_code', { body: { code } }, { token: ann });
/** A refused call: its status and the error body. */
const refusal = (res: { status: number; json: () => unknown }, status: number) => {
  expect(res.status).toBe(status);
  return expectErrorBody(res.json(), status);
};

describe('admins make codes on screen', () => {
  it('creates a percent code and an amount code, listed with their state and no uses yet', async () => {
    const percent = fresh();
    const res = await create({ code: `  ${percent.toLowerCase()} `, percent: '15', last_day: '2099-01-31', usage_limit: 3 });
    expect(res.status).toBe(201);
    expect(res.json().data).toMatchObject({ code: percent, kind: 'percent', percent: 15, state: 'active', paused: false, last_day: '2099-01-31', usage_limit: 3, uses: { times: 0, photographers: 0, money_given: 0 } });
    const amount = fresh();
    expect((await create({ code: amount, amount: '5.50' })).json().data).toMatchObject({ kind: 'amount', amount: 5.5, last_day: null, usage_limit: null });
    expect((await list()).map((c) => c.code)).toEqual(expect.arrayContaining([percent, amount]));
  });

  it.each([
    [{ code: 'ab' }, 'code', 'A discount code is 4 to 40 letters, digits or dashes.'],
    [{ code: 'SPRING 10', percent: 10 }, 'code', 'A discount code is 4 to 40 letters, digits or dashes.'],
    [{ code: 'NOWORTH' }, 'percent', 'Give either a percent or an amount in dollars, not both.'],
    [{ code: 'BOTHWORTH', percent: 10, amount: '5' }, 'amount', 'Give either a percent or an amount in dollars, not both.'],
    [{ code: 'PCT-ZERO', percent: 0 }, 'percent', 'The percent is a whole number from 1 to 100.'],
    [{ code: 'PCT-HIGH', percent: '101' }, 'percent', 'The percent is a whole number from 1 to 100.'],
    [{ code: 'AMT-CENTS', amount: '5.005' }, 'amount', 'The amount is in dollars with at most 2 decimals, such as 5.00.'],
    [{ code: 'AMT-ZERO', amount: '0.00' }, 'amount', 'The amount is at least 0.01 dollars.'],
    [{ code: 'BAD-DAY', percent: 10, last_day: '2027-02-30' }, 'last_day', 'The last day is a date such as 2027-01-31.'],
    [{ code: 'BAD-LIMIT', percent: 10, usage_limit: 0 }, 'usage_limit', 'The usage limit is a whole number of 1 or more.'],
  ])('refuses %j: 422 naming %s, nothing saved', async (body, field, message) => {
    const error = refusal(await create(body), 422);
    expect(error.message).toBe(message);
    expect(error.more_info.join(' ')).toContain(field);
    expect(await t.db.select().from(discountCodes).where(eq(discountCodes.code, String(body.code).toUpperCase()))).toEqual([]);
  });

  it('refuses a code that exists, in any letter case', async () => {
    const code = fresh();
    expect((await create({ code, percent: 10 })).status).toBe(201);
    expect(refusal(await create({ code: code.toLowerCase(), amount: 2 }), 422).message).toBe(`The code ${code} already exists.`);
  });

  it('a retry under the same Idempotency-Key gets the first answer and makes one code', async () => {
    const code = fresh();
    const first = await create({ code, percent: 20 }, admin, `retry-${code}`);
    const again = await create({ code, percent: 20 }, admin, `retry-${code}`);
    expect(again.status).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await t.db.select().from(discountCodes).where(eq(discountCodes.code, code))).toHaveLength(1);
  });

  it('only admins: a photographer is refused (403), a signed-out caller too (401)', async () => {
    const code = fresh();
    for (const [as, status] of [[ann, 403], [null, 401]] as const) {
      refusal(await callApi(t.app, 'GET /discount_codes', {}, asCaller(as)), status);
      refusal(await create({ code, percent: 10 }, as), status);
      refusal(await patch('ANYCODE', { paused: true }, as), status);
    }
    expect(await t.db.select().from(discountCodes).where(eq(discountCodes.code, code))).toEqual([]);
  });
});

describe('pause, resume and expire', () => {
  it('a paused code is refused at checkout with the reason; resumed, it works again', async () => {
    const code = fresh();
    await create({ code, percent: 10 });
    const paused = await patch(code.toLowerCase(), { paused: true });
    expect(paused.status).toBe(200);
    expect(paused.json().data).toMatchObject({ code, state: 'paused', paused: true });
    const message = `The discount code ${code} is paused by the lab.`;
    expect(refusal(await validate(code), 404).message).toBe(message);
    const o = await readyOrder(t, p);
    expect(refusal(await change(t, o.token, o.order, { type: 'discount_code', value: code }), 422).message).toBe(message);
    expect((await patch(code, { paused: false })).json().data.state).toBe('active');
    expect((await validate(code)).status).toBe(200);
  });

  it('a code applied to an order and paused before PLACE ORDER is refused at checkout, nothing charged', async () => {
    const code = fresh();
    await create({ code, percent: 10 });
    const o = await readyOrder(t, p);
    await changed(t, o.token, o.order, { type: 'discount_code', value: code });
    await patch(code, { paused: true });
    expect(refusal(await payOrder(t, o.token, o.order), 422).message).toBe(`The discount code ${code} is paused by the lab.`);
    expect((await listed(code))?.uses.times).toBe(0);
  });

  it('expires now, or after a given last day; an expired code says when it expired', async () => {
    const code = fresh();
    await create({ code, amount: 3 });
    const expired = (await patch(code, { expires: 'now' })).json().data;
    expect(expired.state).toBe('expired');
    expect(refusal(await validate(code), 404).message).toBe(`The discount code ${code} expired on ${expired.last_day}.`);
    expect((await patch(code, { expires: '2099-06-30' })).json().data).toMatchObject({ state: 'active', last_day: '2099-06-30' });
  });

  it('refuses a change that says nothing, a bad date, and an unknown code', async () => {
    const code = fresh();
    await create({ code, percent: 5 });
    expect(refusal(await patch(code, {}), 422).message).toBe('Say what to change: paused, or expires.');
    expect(refusal(await patch(code, { expires: 'tomorrow' }), 422).message).toBe('The last day is a date such as 2027-01-31.');
    // A string where the contract takes a boolean: the server's own message for it.
    expect(refusal(await patch(code, { paused: 'yes' } as unknown as CodeChange), 422).message).toBe('paused is true or false.');
    expect(refusal(await patch('NO-SUCH-CODE', { paused: true }), 404).message).toBe('There is no discount code with this name.');
  });
});

describe('uses', () => {
  it('counts the times used, the photographers and the money given by paid orders', async () => {
    const code = fresh();
    await create({ code, percent: 10 });
    const orders = [await readyOrder(t, p), await readyOrder(t, p)];
    for (const o of orders) {
      await changed(t, o.token, o.order, { type: 'discount_code', value: code });
      expect((await payOrder(t, o.token, o.order)).status).toBe(200);
    }
    const given = orders.reduce((sum, o) => sum + Math.round(o.subtotalCents / 10), 0) / 100;
    expect((await listed(code))?.uses).toEqual({ times: 2, photographers: 2, money_given: given });
  });
});
