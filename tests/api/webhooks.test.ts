import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { idempotencyKeys, webhookDeliveries, webhookEndpoints } from '../../server/db/schema.ts';
import { deliverWebhook, WEBHOOK_QUEUE, type WebhookJob } from '../../server/services/partner-events.ts';
import { loadWebhookKey, sealPlainWebhookSecrets, secretBox, webhookSigningSecret } from '../../server/services/webhook-secrets.ts';
import type { ResolveHost } from '../../server/services/webhook-url.ts';
import { WEBHOOKS_PER_ACCOUNT } from '../../src/domain/partner-webhooks.ts';
import { callApi } from './contract-call.ts';
import { createUser, expectErrorBody, signIn } from './helper.ts';
import { addItems, labWithAdmin, orderWithPhotos, payload } from './line-items-helpers.ts';
import { readyOrder } from './checkout-helpers.ts';
import { callAs, newKey } from './photo-helpers.ts';

/**
 * Partner webhooks (issue 34): registered on /account, told of each status change of the
 * partner's own orders, signed as Standard Webhooks sign, retried until the receiver takes them.
 * The job's tries are driven one by one here, as pg-boss runs them (its backoff is pg-boss's own,
 * exercised with the real queue in tests/e2e/partner-webhooks.spec.ts).
 */

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let answers: number[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.statusCode = answers.shift() ?? 200;
    res.end(res.statusCode === 200 ? 'thanks' : 'down for a deploy');
  });
});
let receiverUrl = '';
let lab: Awaited<ReturnType<typeof labWithAdmin>>;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/lab-events`;
  lab = await labWithAdmin({ jobs: 'recorded' });
});
afterAll(async () => {
  await lab.t.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** The receiver's check, as a partner would write it from the Standard Webhooks rules. */
function signatureHolds(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`).digest('base64');
  return String(headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

// The app's key: the test app has no DATABASE_URL (its database is handed in), so its key is
// the embedded start's key file in its DATA_DIR, read again here; the app secret is not used.
const appKey = () => loadWebhookKey(lab.t.config, '');
const deps = (resolveHost?: ResolveHost) => ({ db: lab.t.db, jobs: lab.t.jobs, config: lab.t.config, webhookSecrets: secretBox(appKey().key), resolveHost });
/** An admin's change of an order (status, tracking_url), as the admin panel sends it. */
const adminSets = (order: string, type: string, value: string) => callAs(lab.t.app, 'PATCH /lab_orders/:guid', { params: { guid: order }, body: { type, value } }, { token: lab.admin });
/** The webhook jobs queued so far, by delivery id. */
const queued = () => lab.t.sentJobs.filter((j) => j.queue === WEBHOOK_QUEUE).map((j) => (j.data as WebhookJob).deliveryId);

describe('partner webhooks', () => {
  it('registers a webhook, shows its secret once, and signs each status change of the partner’s orders', async () => {
    const { t, p } = lab;
    const o = await orderWithPhotos(t, 1);
    expect((await addItems(t, o.token, o.order, [payload(o.photos[0] ?? '', p.size.guid)])).status).toBe(201);
    const made = await callApi(t.app, 'POST /webhooks', { body: { url: receiverUrl } }, { token: o.token });
    expect(made.status).toBe(201);
    const { secret, guid } = made.json().data;
    expect(secret).toMatch(/^whsec_/);
    const listed = (await callApi(t.app, 'GET /webhooks', {}, { token: o.token })).json().data;
    expect(listed).toEqual([expect.objectContaining({ guid, url: receiverUrl, secret_hint: `whsec_…${secret.slice(-4)}` })]);
    expect(JSON.stringify(listed)).not.toContain(secret);

    for (const status of ['paid', 'printing', 'framing', 'shipped']) {
      expect((await adminSets(o.order, 'status', status)).status).toBe(200);
    }
    const tracking = 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000001';
    expect((await adminSets(o.order, 'tracking_url', tracking)).status).toBe(200);
    // Framing is the lab's own step: four events, the last "shipped" again with its tracking link.
    const jobs = queued();
    expect(jobs).toHaveLength(4);
    for (const id of jobs) await deliverWebhook(deps(), { deliveryId: id }, { retryCount: 0, retryLimit: 8 });
    const events = received.map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.type)).toEqual(['order.accepted', 'order.printing', 'order.shipped', 'order.shipped']);
    expect(events[3].data.order).toMatchObject({ guid: o.order, status: 'shipped', tracking_url: tracking });
    for (const r of received) {
      expect(signatureHolds(secret, r.headers, r.body)).toBe(true);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
      expect(signatureHolds(`whsec_${Buffer.from('another secret').toString('base64')}`, r.headers, r.body)).toBe(false);
    }
    const log = (await callApi(t.app, 'GET /webhooks/:guid/deliveries', { params: { guid } }, { token: o.token })).json().data;
    expect(log.map((d) => [d.event_type, d.state, d.last_status_code])).toEqual([
      ['order.shipped', 'delivered', 200],
      ['order.shipped', 'delivered', 200],
      ['order.printing', 'delivered', 200],
      ['order.accepted', 'delivered', 200],
    ]);
  });

  it('retries a delivery the receiver refuses, keeps each answer, and fails it after the last try', async () => {
    const { t } = lab;
    const o = await orderWithPhotos(t, 1);
    const { guid } = (await callApi(t.app, 'POST /webhooks', { body: { url: receiverUrl } }, { token: o.token })).json().data;
    const before = queued().length;
    received.length = 0;
    expect((await adminSets(o.order, 'status', 'cancelled')).status).toBe(200);
    const [id] = queued().slice(before);
    answers = [500, 200];
    await expect(deliverWebhook(deps(), { deliveryId: id ?? 0 }, { retryCount: 0, retryLimit: 8 })).rejects.toThrow(/HTTP 500/);
    let [row] = (await callApi(t.app, 'GET /webhooks/:guid/deliveries', { params: { guid } }, { token: o.token })).json().data;
    expect(row).toMatchObject({ event_type: 'order.cancelled', state: 'pending', attempts: 1, last_status_code: 500, last_answer: 'down for a deploy' });
    await deliverWebhook(deps(), { deliveryId: id ?? 0 }, { retryCount: 1, retryLimit: 8 });
    [row] = (await callApi(t.app, 'GET /webhooks/:guid/deliveries', { params: { guid } }, { token: o.token })).json().data;
    expect(row).toMatchObject({ state: 'delivered', attempts: 2, last_status_code: 200 });
    // Both tries carried the same event id: the receiver can drop the repeat.
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);

    // RESEND: the same event again; a receiver that keeps refusing fails it on the last try.
    const resent = await callApi(t.app, 'POST /webhook_deliveries/:guid/resend', { params: { guid: row?.guid ?? '' } }, { token: o.token });
    expect(resent.json().data.state).toBe('pending');
    const again = queued().at(-1) ?? 0;
    expect(again).toBe(id);
    answers = [503];
    await expect(deliverWebhook(deps(), { deliveryId: again }, { retryCount: 8, retryLimit: 8 })).rejects.toThrow(/HTTP 503/);
    [row] = (await callApi(t.app, 'GET /webhooks/:guid/deliveries', { params: { guid } }, { token: o.token })).json().data;
    expect(row).toMatchObject({ state: 'failed', attempts: 3, last_status_code: 503 });
  });

  it('tells of a checkout, a refund and a cancellation with their amounts', async () => {
    const { t, p, admin } = lab;
    const o = await readyOrder(t, p);
    const { guid } = (await callApi(t.app, 'POST /webhooks', { body: { url: receiverUrl } }, { token: o.token })).json().data;
    expect((await callAs(t.app, 'POST /lab_orders/:guid/checkout', { params: { guid: o.order }, body: {} }, { token: o.token })).status).toBe(200);
    const refund = { refund_amount: '1.25', refund_note: 'One print was scratched' };
    expect((await callAs(t.app, 'POST /lab_orders/:guid/refund', { params: { guid: o.order }, body: refund }, { token: admin })).status).toBe(200);
    expect((await callAs(t.app, 'POST /lab_orders/:guid/cancel', { params: { guid: o.order } }, { token: o.token })).status).toBe(200);
    const log = (await callApi(t.app, 'GET /webhooks/:guid/deliveries', { params: { guid } }, { token: o.token })).json().data;
    expect(log.map((d) => d.event_type)).toEqual(['order.cancelled', 'order.refunded', 'order.accepted']);
    const [refunded] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.guid, log[1]?.guid ?? ''));
    expect(refunded?.payload).toMatchObject({ type: 'order.refunded', data: { order: { guid: o.order }, refund: { amount: 1.25, note: 'One print was scratched' } } });
  });

  it('shows a partner only their own webhooks and deliveries', async () => {
    const { t } = lab;
    const owner = await orderWithPhotos(t, 1);
    const other = await createUser(t.db);
    const otherToken = await signIn(t.app, other.user.email, other.password);
    const { guid } = (await callApi(t.app, 'POST /webhooks', { body: { url: receiverUrl } }, { token: owner.token })).json().data;
    expect((await callApi(t.app, 'GET /webhooks', {}, { token: otherToken })).json().data).toEqual([]);
    for (const res of [
      await callApi(t.app, 'GET /webhooks/:guid/deliveries', { params: { guid } }, { token: otherToken }),
      await callApi(t.app, 'DELETE /webhooks/:guid', { params: { guid } }, { token: otherToken }),
    ]) {
      expect(res.status).toBe(404);
      expect(expectErrorBody(res.json(), 404).message).toBe('This webhook does not exist.');
    }
    expect((await callApi(t.app, 'GET /webhooks', {}, {})).status).toBe(401);
    // Removed, it is told nothing more and is gone from the list.
    expect((await callApi(t.app, 'DELETE /webhooks/:guid', { params: { guid } }, { token: owner.token })).status).toBe(200);
    expect((await callApi(t.app, 'GET /webhooks', {}, { token: owner.token })).json().data).toEqual([]);
  });

  it('refuses a URL that is not an http(s) address, and more than the limit of webhooks', async () => {
    const { t } = lab;
    const me = await createUser(t.db);
    const token = await signIn(t.app, me.user.email, me.password);
    for (const url of ['not a url', 'ftp://example.com/x', 'https://user:pw@example.com/x', 'javascript:alert(1)']) {
      const res = await callApi(t.app, 'POST /webhooks', { body: { url } }, { token });
      expect(expectErrorBody(res.json(), 422).message).toBe('The webhook URL must be an https address, like https://example.com/lab-events.');
    }
    for (let i = 0; i < WEBHOOKS_PER_ACCOUNT; i += 1) expect((await callApi(t.app, 'POST /webhooks', { body: { url: `https://example.com/${i}` } }, { token })).status).toBe(201);
    const over = await callApi(t.app, 'POST /webhooks', { body: { url: 'https://example.com/over' } }, { token });
    expect(expectErrorBody(over.json(), 422).message).toBe(`An account can have at most ${WEBHOOKS_PER_ACCOUNT} webhooks. Remove one first.`);
    expect((await callApi(t.app, 'GET /webhooks', {}, { token })).json().data).toHaveLength(WEBHOOKS_PER_ACCOUNT);
  });

  it('keeps the signing secret sealed in the database and in the stored answer, and replays a double click', async () => {
    const { t } = lab;
    const o = await orderWithPhotos(t, 1);
    const key = newKey();
    const register = () => callApi(t.app, 'POST /webhooks', { body: { url: receiverUrl } }, { token: o.token, headers: { 'idempotency-key': key } });
    const first = await register();
    const again = await register();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.response.headers['idempotent-replayed']).toBe('true');
    const { secret, guid } = first.json().data;
    expect(again.json().data).toEqual(first.json().data);
    expect((await callApi(t.app, 'GET /webhooks', {}, { token: o.token })).json().data.map((w) => w.guid)).toEqual([guid]);
    // Nowhere readable at rest: not the webhook's row, not the answer kept for the replay.
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.guid, guid));
    expect(row?.secret).toBeNull();
    const stored = await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(stored).toHaveLength(1);
    const secretBytes = secret.replace(/^whsec_/, '');
    expect(JSON.stringify([row, stored])).not.toContain(secretBytes);
    // Bound to its row: another webhook's sealed secret does not open as this one's.
    expect(appKey().source).toBe('key file');
    const box = deps().webhookSecrets;
    expect(await webhookSigningSecret(t.db, box, row!)).toBe(secret);
    expect(() => box.open(row?.sealedSecret ?? '', 'webhook_endpoints:00000000-0000-4000-8000-000000000000')).toThrow(/unable to authenticate/);
    // A process given another key cannot sign: the try fails, and the partner's log says why.
    const before = queued().length;
    expect((await adminSets(o.order, 'status', 'cancelled')).status).toBe(200);
    const [id] = queued().slice(before);
    const otherKey = { ...deps(), webhookSecrets: secretBox(randomBytes(32)) };
    await expect(deliverWebhook(otherKey, { deliveryId: id ?? 0 }, { retryCount: 0, retryLimit: 8 })).rejects.toThrow(/cannot open this webhook's signing secret/);
    const [logged] = (await callApi(t.app, 'GET /webhooks/:guid/deliveries', { params: { guid } }, { token: o.token })).json().data;
    expect(logged).toMatchObject({ state: 'pending', attempts: 1, last_status_code: null, last_answer: expect.stringContaining('sealed with another WEBHOOK_SECRET_KEY') });
  });

  it('seals a secret stored in plain text before: at its first delivery, and at start', async () => {
    const { t } = lab;
    const o = await orderWithPhotos(t, 1);
    const plain = () => `whsec_${randomBytes(24).toString('base64')}`;
    const [older, oldest] = [plain(), plain()];
    // Rows as the release before wrote them (the migration only filled in their hints).
    const [a, b] = await t.db
      .insert(webhookEndpoints)
      .values([older, oldest].map((secret) => ({ userGuid: o.user.guid, url: receiverUrl, secret, secretHint: secret.slice(-4) })))
      .returning();
    const listed = (await callApi(t.app, 'GET /webhooks', {}, { token: o.token })).json().data;
    expect(listed.map((w) => w.secret_hint).sort()).toEqual([`whsec_…${older.slice(-4)}`, `whsec_…${oldest.slice(-4)}`].sort());

    const before = queued().length;
    received.length = 0;
    expect((await adminSets(o.order, 'status', 'cancelled')).status).toBe(200);
    const jobs = queued().slice(before);
    expect(jobs).toHaveLength(2);
    const [toOlder] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointGuid, a?.guid ?? ''));
    await deliverWebhook(deps(), { deliveryId: toOlder?.id ?? 0 }, { retryCount: 0, retryLimit: 8 });
    expect(received).toHaveLength(1);
    expect(signatureHolds(older, received[0]?.headers ?? {}, received[0]?.body ?? '')).toBe(true);
    const [sealedAtUse] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.guid, a?.guid ?? ''));
    expect(sealedAtUse).toMatchObject({ secret: null, sealedSecret: expect.stringMatching(/^v1\./) });

    // The start's pass seals the rest, and they still sign with the secret the partner holds.
    const box = deps().webhookSecrets;
    expect(await sealPlainWebhookSecrets(t.db, box)).toBe(1);
    const [sealedAtStart] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.guid, b?.guid ?? ''));
    expect(sealedAtStart?.secret).toBeNull();
    expect(await webhookSigningSecret(t.db, box, sealedAtStart!)).toBe(oldest);
    expect(await sealPlainWebhookSecrets(t.db, box)).toBe(0);
  });

  it('POSTs to the address it checked, not to what the name resolves to a moment later', async () => {
    const { t } = lab;
    const port = (receiver.address() as { port: number }).port;
    // An internal service on another loopback address at the same port: where a rebinding would lead.
    const internal: string[] = [];
    const inside = createServer((req, res) => {
      internal.push(req.url ?? '');
      res.end('internal');
    });
    await new Promise<void>((resolve) => inside.listen(port, '127.0.0.2', resolve));
    try {
      const o = await orderWithPhotos(t, 1);
      const url = `http://partner.test:${port}/lab-events`;
      expect((await callAs(t.app, 'POST /webhooks', { body: { url } }, { token: o.token })).status).toBe(201);
      const before = queued().length;
      expect((await adminSets(o.order, 'status', 'cancelled')).status).toBe(200);
      const [id] = queued().slice(before);
      // The partner's DNS answers the check with one address and every later question with another.
      const asked: string[] = [];
      const rebinding: ResolveHost = async (host) => {
        asked.push(host);
        return [{ address: asked.length === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
      };
      received.length = 0;
      await deliverWebhook(deps(rebinding), { deliveryId: id ?? 0 }, { retryCount: 0, retryLimit: 8 });
      expect(asked).toEqual(['partner.test']);
      expect(internal).toEqual([]);
      expect(received).toHaveLength(1);
      expect(received[0]?.headers.host).toBe(`partner.test:${port}`);
    } finally {
      await new Promise<void>((resolve) => inside.close(() => resolve()));
    }
  });

  it('queues deliveries after an admin change only when the change wrote one', async () => {
    const { t } = lab;
    const partner = await orderWithPhotos(t, 1);
    const { guid } = (await callAs(t.app, 'POST /webhooks', { body: { url: receiverUrl } }, { token: partner.token })).json().data;
    // A delivery another change wrote and has not kicked yet (its request is between commit and kick).
    const [waiting] = await t.db
      .insert(webhookDeliveries)
      .values({ endpointGuid: guid, eventId: crypto.randomUUID(), eventType: 'order.printing', orderGuid: partner.order, payload: {} })
      .returning();
    const before = queued().length;
    const plain = await orderWithPhotos(t, 1);
    expect((await adminSets(plain.order, 'status', 'cancelled')).status).toBe(200);
    expect((await adminSets(partner.order, 'internal_notes', 'Call before shipping')).status).toBe(200);
    // No delivery of their own: nothing claimed, the waiting one left to the change that wrote it.
    expect(queued().length).toBe(before);
    const [still] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, waiting?.id ?? 0));
    expect(still?.queuedAt).toBeNull();
    // A change that tells the partner queues its delivery (and any waiting, as one UPDATE claims them).
    expect((await adminSets(partner.order, 'status', 'cancelled')).status).toBe(200);
    expect(queued().slice(before)).toHaveLength(2);
  });
});
