import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendToVendor, VENDOR_RETRY, VENDOR_SEND_QUEUE, type VendorJob } from '../../server/services/vendor-send.ts';
import { createTestApp, createUser, signIn, type TestApp } from './helper.ts';
import { orderDetail, orderWithPhotos } from './line-items-helpers.ts';
import { callAs } from './photo-helpers.ts';

/**
 * A vendor send whose retries run out is not only logged: the order's events say so, and the
 * order detail tells the admin (vendor_send_status 'failed', with the reason) until SEND AGAIN.
 * The job's tries are driven here one by one, as pg-boss would run them (the backoff of the real
 * queue is tested in order-jobs.test.ts).
 */

describe('a vendor send that exhausts its retries', () => {
  let t: TestApp;
  let admin: string;
  let vendorUp = false;
  const bodies: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.statusCode = vendorUp ? 200 : 503;
      res.end(vendorUp ? '{"ok":true}' : 'down for maintenance');
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    t = await createTestApp({ VENDOR_API_URL: `http://127.0.0.1:${port}/orders` }, { jobs: 'recorded' });
    const a = await createUser(t.db, { isAdmin: true });
    admin = await signIn(t.app, a.user.email, a.password);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  const deps = () => ({ db: t.db, storage: t.storage, config: t.config, now: () => t.clock.now });
  const detail = (order: string, token = admin) => orderDetail(t, token, order);
  const sendToVendorNow = (order: string) => callAs(t.app, 'POST /lab_orders/:guid/send_to_api', { params: { guid: order } }, { token: admin });
  const lastJob = () => t.sentJobs.filter((j) => j.queue === VENDOR_SEND_QUEUE).at(-1)?.data as VendorJob;

  it('records the last failure with its tries and reason, shows it on the detail, and SEND AGAIN starts over', async () => {
    const o = await orderWithPhotos(t, 1);
    expect((await sendToVendorNow(o.order)).status).toBe(200);
    expect((await detail(o.order)).vendor_send_status).toMatchObject({ state: 'queued', detail: 'Sent to the vendor: queued' });

    const job = lastJob();
    const limit = VENDOR_RETRY.retryLimit;
    await expect(sendToVendor(deps(), job, { retryCount: 0, retryLimit: limit })).rejects.toThrow('the vendor answered HTTP 503');
    expect((await detail(o.order)).vendor_send_status).toMatchObject({ state: 'retrying', detail: `Send failed (try 1 of ${limit + 1}): the vendor answered HTTP 503; trying again shortly` });

    await expect(sendToVendor(deps(), job, { retryCount: limit, retryLimit: limit })).rejects.toThrow('the vendor answered HTTP 503');
    const failed = await detail(o.order);
    const sentence = `Vendor send failed after ${limit + 1} tries: the vendor answered HTTP 503`;
    expect(failed.vendor_send_status).toMatchObject({ state: 'failed', detail: sentence });
    expect(failed.events?.[0]).toMatchObject({ kind: 'vendor_send_failed', detail: sentence, actor_guid: null });
    expect(failed.last_sent_to_vendor_at).toBeNull();
    // The vendor got the order's JSON each time.
    expect(bodies.map((b) => JSON.parse(b).order.guid)).toEqual([o.order, o.order]);
    // Shipped to the studio: the vendor packs its own slip.
    expect(JSON.parse(bodies[0] ?? '{}').order).toMatchObject({ drop_ship_address: null, blind_slip: false, packing_slip_url: null });
    // Photographers see none of it.
    expect((await detail(o.order, o.token)).vendor_send_status).toBeUndefined();

    // SEND AGAIN: a new send (its own idempotency key), queued, then taken by the vendor.
    vendorUp = true;
    expect((await sendToVendorNow(o.order)).status).toBe(200);
    expect((await detail(o.order)).vendor_send_status?.state).toBe('queued');
    const again = lastJob();
    expect(again.sendId).not.toBe(job.sendId);
    await sendToVendor(deps(), again, { retryCount: 0, retryLimit: limit });
    const sent = await detail(o.order);
    expect(sent.vendor_send_status).toMatchObject({ state: 'sent', detail: 'Received by the vendor' });
    expect(sent.last_sent_to_vendor_at).not.toBeNull();
  });

  it('an unreachable vendor is named as such on the last try', async () => {
    const o = await orderWithPhotos(t, 0);
    expect((await sendToVendorNow(o.order)).status).toBe(200);
    const unreachable = { ...deps(), config: { ...t.config, vendorApiUrl: 'http://127.0.0.1:9/orders' } };
    await expect(sendToVendor(unreachable, lastJob(), { retryCount: 0, retryLimit: 0 })).rejects.toThrow('the vendor could not be reached');
    const status = (await detail(o.order)).vendor_send_status;
    expect(status?.state).toBe('failed');
    expect(status?.detail).toMatch(/^Vendor send failed after 1 try: the vendor could not be reached \(/);
  });

  it("a drop-ship with a blind slip tells the vendor to pack the studio's slip, with a signed link to its PDF", async () => {
    vendorUp = true;
    const o = await orderWithPhotos(t, 1);
    const client = { recipient_name: 'Jane Client', street_address: '9 Oak Ave', city: 'Memphis', state: 'TN', zip: '38103' };
    expect((await callAs(t.app, 'PUT /lab_orders/:guid/drop_ship', { params: { guid: o.order }, body: client }, { token: o.token })).status).toBe(200);
    expect((await callAs(t.app, 'PATCH /lab_orders/:guid', { params: { guid: o.order }, body: { type: 'blind_slip', value: true } }, { token: o.token })).status).toBe(200);
    expect((await sendToVendorNow(o.order)).status).toBe(200);
    await sendToVendor(deps(), lastJob(), { retryCount: 0, retryLimit: VENDOR_RETRY.retryLimit });

    const sent = JSON.parse(bodies.at(-1) ?? '{}').order;
    expect(sent).toMatchObject({ guid: o.order, blind_slip: true, drop_ship_address: { recipient: 'Jane Client', street: '9 Oak Ave' } });
    // The slip is the one the lab makes (packing-slip-pdf.ts), fetched as the vendor would fetch an original.
    const link = new URL(sent.packing_slip_url, 'http://lab.test');
    const pdf = (await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` })).rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('(Jane Client) Tj');
  });

  it('tells the admin a vendor is set up, so SEND TO VENDOR is offered (docs/orders.md §6: when vendor set)', async () => {
    const o = await orderWithPhotos(t, 0);
    expect((await detail(o.order)).vendor_configured).toBe(true);
    expect((await detail(o.order, o.token)).vendor_configured).toBeUndefined();
  });
});

describe('a lab without a vendor API', () => {
  it('says so on the order, so no SEND TO VENDOR is offered', async () => {
    const t = await createTestApp();
    try {
      const a = await createUser(t.db, { isAdmin: true });
      const admin = await signIn(t.app, a.user.email, a.password);
      const o = await orderWithPhotos(t, 0);
      expect((await orderDetail(t, admin, o.order)).vendor_configured).toBe(false);
    } finally {
      await t.close();
    }
  });
});
