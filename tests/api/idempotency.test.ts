import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

let t: TestApp;
let calls = 0;
let token: string;
let otherToken: string;

beforeAll(async () => {
  t = await createTestApp();
  // A mutating call with a visible side effect: how many times it really ran.
  t.app.post(api('/test-count'), { config: { public: true } }, async (request) => {
    calls += 1;
    return { calls, echo: request.body };
  });
  t.app.post(api('/test-refused'), { config: { public: true } }, async (_request, reply) => {
    calls += 1;
    return reply.code(422).send({ error: { status: 422, class_name: 'ProductUnavailable', developer_message: '', user_message: { message: 'withdrawn' }, more_info: [] } });
  });
  t.app.post(api('/test-flaky'), { config: { public: true } }, async (_request, reply) => {
    calls += 1;
    return calls % 2 === 1 ? reply.code(503).send({ error: { status: 503, class_name: 'Unavailable', developer_message: '', user_message: { message: 'busy' }, more_info: [] } }) : { ok: true };
  });
  const a = await createUser(t.db);
  const b = await createUser(t.db);
  token = await signIn(t.app, a.user.email, a.password);
  otherToken = await signIn(t.app, b.user.email, b.password);
});
afterAll(() => t.close());

const send = (key: string | undefined, payload: unknown, tok = token, url = api('/test-count')) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: { token: tok, ...(key ? { 'idempotency-key': key } : {}) } });

describe('Idempotency-Key', () => {
  it('a replay returns the first answer and changes nothing twice', async () => {
    const before = calls;
    const first = await send('key-1', { n: 1 });
    const again = await send('key-1', { n: 1 });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(calls).toBe(before + 1);
  });

  it('without a key every call runs', async () => {
    const before = calls;
    await send(undefined, { n: 2 });
    await send(undefined, { n: 2 });
    expect(calls).toBe(before + 2);
  });

  it('the same key with a different body is refused with 422', async () => {
    await send('key-2', { n: 1 });
    const res = await send('key-2', { n: 99 });
    expect(res.statusCode).toBe(422);
    expect(expectErrorBody(res.json(), 422).class_name).toBe('IdempotencyKeyReused');
  });

  it('keys belong to their user: another user with the same key runs afresh', async () => {
    const before = calls;
    await send('shared-key', { n: 3 });
    const other = await send('shared-key', { n: 3 }, otherToken);
    expect(other.statusCode).toBe(200);
    expect(calls).toBe(before + 2);
  });

  it('a server failure is not stored: the retry runs again', async () => {
    const before = calls;
    const first = await send('key-flaky', {}, token, api('/test-flaky'));
    const retry = await send('key-flaky', {}, token, api('/test-flaky'));
    expect([first.statusCode, retry.statusCode]).toEqual([503, 200]);
    expect(calls).toBe(before + 2);
  });

  it('a key whose first request died unanswered is taken over after a minute, not blocked for a day', async () => {
    const { idempotencyKeys } = await import('../../server/db/schema.ts');
    const { sql } = await import('drizzle-orm');
    const before = calls;
    const first = await send('key-dead', { n: 7 });
    expect(first.statusCode).toBe(200);
    // As if the process had died before answering, two minutes ago.
    await t.db.update(idempotencyKeys).set({ statusCode: null, response: null, createdAt: sql`now() - interval '2 minutes'` });
    const retry = await send('key-dead', { n: 7 });
    expect(retry.statusCode).toBe(200);
    expect(calls).toBe(before + 2);
    // A claim still fresh is in progress: 409.
    await t.db.update(idempotencyKeys).set({ statusCode: null, response: null, createdAt: sql`now()` });
    const busy = await send('key-dead', { n: 7 });
    expect(expectErrorBody(busy.json(), 409).class_name).toBe('RequestInProgress');
  });

  it("an answer belongs to the session that made it: another session of the same user never gets it", async () => {
    const a = await createUser(t.db);
    const first = await signIn(t.app, a.user.email, a.password);
    const second = await signIn(t.app, a.user.email, a.password);
    const before = calls;
    expect((await send('session-key', { n: 4 }, first)).statusCode).toBe(200);
    const other = await send('session-key', { n: 4 }, second);
    // Not replayed to the other session, and not made a second time either.
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.statusCode).toBe(409);
    expect(expectErrorBody(other.json(), 409).class_name).toBe('IdempotencyKeyReused');
    expect(calls).toBe(before + 1);
    // The session that made it still gets its answer back.
    expect((await send('session-key', { n: 4 }, first)).headers['idempotent-replayed']).toBe('true');
  });

  it('a refusal is replayed to another session of the same user: only a change made belongs to its session', async () => {
    const a = await createUser(t.db);
    const first = await signIn(t.app, a.user.email, a.password);
    const second = await signIn(t.app, a.user.email, a.password);
    const before = calls;
    expect((await send('refused-key', { n: 6 }, first, api('/test-refused'))).statusCode).toBe(422);
    const other = await send('refused-key', { n: 6 }, second, api('/test-refused'));
    expect(other.headers['idempotent-replayed']).toBe('true');
    expect(expectErrorBody(other.json(), 422).class_name).toBe('ProductUnavailable');
    expect(calls).toBe(before + 1);
  });

  it("another session's request still running is in progress for every session; taken over once abandoned, its answer is the new session's", async () => {
    const a = await createUser(t.db);
    const first = await signIn(t.app, a.user.email, a.password);
    const second = await signIn(t.app, a.user.email, a.password);
    const { idempotencyKeys } = await import('../../server/db/schema.ts');
    const { eq, sql } = await import('drizzle-orm');
    expect((await send('running-key', { n: 5 }, first)).statusCode).toBe(200);
    // As if the first session's request were still running (its answer not yet stored).
    const running = eq(idempotencyKeys.key, 'running-key');
    await t.db.update(idempotencyKeys).set({ statusCode: null, response: null, createdAt: sql`now()` }).where(running);
    const meanwhile = await send('running-key', { n: 5 }, second);
    expect(expectErrorBody(meanwhile.json(), 409).class_name).toBe('RequestInProgress');
    // The first request died: the second session's retry takes the claim over and makes the change.
    await t.db.update(idempotencyKeys).set({ createdAt: sql`now() - interval '2 minutes'` }).where(running);
    const before = calls;
    const taken = await send('running-key', { n: 5 }, second);
    expect(taken.statusCode).toBe(200);
    expect(calls).toBe(before + 1);
    expect((await send('running-key', { n: 5 }, second)).headers['idempotent-replayed']).toBe('true');
    expect(expectErrorBody((await send('running-key', { n: 5 }, first)).json(), 409).class_name).toBe('IdempotencyKeyReused');
  });

  it('logout and logout_all_sessions are always carried out, never answered from a replay', async () => {
    const a = await createUser(t.db);
    const first = await signIn(t.app, a.user.email, a.password);
    const second = await signIn(t.app, a.user.email, a.password);
    const third = await signIn(t.app, a.user.email, a.password);
    const out = (tok: string, path = '/logout') => t.app.inject({ method: 'DELETE', url: api(path), headers: { token: tok, 'idempotency-key': 'logout-key' } });
    const stillIn = async (tok: string) => (await t.app.inject({ method: 'GET', url: api('/profile'), headers: { token: tok } })).statusCode === 200;
    expect((await out(first)).statusCode).toBe(200);
    const replayed = await out(second);
    expect(replayed.headers['idempotent-replayed']).toBeUndefined();
    expect(replayed.statusCode).toBe(200);
    expect(await stillIn(second)).toBe(false);
    expect(await stillIn(third)).toBe(true);
    // The same key on logout_all_sessions ends every session, whatever was sent before.
    const fourth = await signIn(t.app, a.user.email, a.password);
    expect((await out(third, '/logout_all_sessions')).statusCode).toBe(200);
    expect((await out(fourth, '/logout_all_sessions')).headers['idempotent-replayed']).toBeUndefined();
    expect(await stillIn(fourth)).toBe(false);
  });

  it('a key longer than 200 characters is refused', async () => {
    const res = await send('k'.repeat(201), {});
    expect(res.statusCode).toBe(400);
    expectErrorBody(res.json(), 400);
  });

  it('a change made before a crash lost its answer is not made again when its request runs again: an address, an order', async () => {
    const { addresses, idempotencyKeys } = await import('../../server/db/schema.ts');
    const { eq, sql } = await import('drizzle-orm');
    const u = await createUser(t.db);
    const me = await signIn(t.app, u.user.email, u.password);
    const post = (path: string, key: string, payload: object) => t.app.inject({ method: 'POST', url: api(path), headers: { token: me, 'idempotency-key': key }, payload });
    // What kill -9 between the change's commit and the answer's leaves: the claim, no answer,
    // taken over by the retry once a minute old.
    const crashed = (key: string) => t.db.update(idempotencyKeys).set({ statusCode: null, response: null, createdAt: sql`now() - interval '2 minutes'` }).where(eq(idempotencyKeys.key, key));

    const address = { street_address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' };
    expect((await post('/addresses', 'crash-address', address)).statusCode).toBe(200);
    await crashed('crash-address');
    const again = await post('/addresses', 'crash-address', address);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json().addresses.data).toHaveLength(1);
    expect(await t.db.select().from(addresses).where(eq(addresses.userGuid, u.user.guid))).toHaveLength(1);
    // Another key is another address.
    expect((await post('/addresses', 'crash-address-2', address)).json().addresses.data).toHaveLength(2);

    const made = await post('/lab_orders', 'crash-order', { order_name: 'Smith wedding' });
    expect(made.statusCode).toBe(201);
    await crashed('crash-order');
    const remade = await post('/lab_orders', 'crash-order', { order_name: 'Smith wedding' });
    expect(remade.statusCode).toBe(201);
    expect(remade.json().data.attributes.guid).toBe(made.json().data.attributes.guid);
    // The same name under another key is still refused.
    expect(expectErrorBody((await post('/lab_orders', 'crash-order-2', { order_name: 'Smith wedding' })).json(), 422)).toBeTruthy();
  });
});
