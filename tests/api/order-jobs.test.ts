import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { unzip } from '../unit/fixtures/unzip.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Readable } from 'node:stream';
import type { Storage } from '../../server/adapters/storage/storage.ts';
import { labOrders, photographs } from '../../server/db/schema.ts';
import { buildZip } from '../../server/services/order-zip.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { addItems, orderDetail, orderWithPhotos, payload, products } from './line-items-helpers.ts';
import { callAs } from './photo-helpers.ts';

/** The zip of an order's originals and the vendor send: pg-boss jobs (docs/lab-rules.md §2). */

/** A noisy JPEG (it does not compress): each photo different bytes, some large. */
const noisy = (width: number, height: number) => sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();

describe('create_zip_file', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({}, { jobs: true });
    const a = await createUser(t.db, { isAdmin: true });
    admin = await signIn(t.app, a.user.email, a.password);
  });
  afterAll(() => t.close());

  it('streams every original into one stored zip, byte for byte; DOWNLOAD ALL links to it', async () => {
    const o = await orderWithPhotos(t, 0);
    const [order] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    const originals = new Map<string, Buffer>();
    // Two photos share a file name: both are in the zip, under two names.
    for (const [i, name] of ['IMG_1.jpg', 'IMG_2.jpg', 'IMG_1.jpg', 'Wedding día.jpg'].entries()) {
      const bytes = await noisy(600 + i * 40, 400);
      const key = `photos/${o.order}/${i}.jpg`;
      await t.storage.put(key, bytes, 'image/jpeg');
      await t.db.insert(photographs).values({ labOrderId: order?.id ?? 0, fileName: name, key, size: bytes.length, checksum: randomBytes(32).toString('hex'), contentType: 'image/jpeg', width: 600, height: 400 });
      originals.set(i === 2 ? 'IMG_1 (2).jpg' : name, bytes);
    }
    const asked = await callAs(t.app, 'POST /lab_orders/:guid/create_zip_file', { params: { guid: o.order } }, { token: admin });
    expect(asked.status).toBe(200);
    expect((await orderDetail(t, admin, o.order)).download_all_link).toBeNull();
    const linkNow = async () => (await orderDetail(t, admin, o.order)).download_all_link;
    await expect.poll(linkNow, { timeout: 30_000, interval: 250 }).toBeTruthy();
    const link = (await linkNow()) ?? '';
    const url = new URL(link, 'http://lab.test');
    const download = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(download.statusCode).toBe(200);
    const entries = await unzip(download.rawPayload);
    expect([...entries.keys()].sort()).toEqual([...originals.keys()].sort());
    for (const [name, bytes] of originals) expect(`${name}: ${String(entries.get(name)?.equals(bytes))}`).toBe(`${name}: true`);
    const detail = await orderDetail(t, admin, o.order);
    expect(detail.events?.map((e) => e.detail)).toEqual(['Zip ready: 4 photos', 'Zip created']);
    // The photographer never sees the link.
    expect((await orderDetail(t, o.token, o.order)).download_all_link).toBeNull();
  });

  it('opens at most a few originals at a time, and closes those it opened when the zip fails', async () => {
    const o = await orderWithPhotos(t, 0);
    const [order] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    const photos = 30;
    for (let i = 0; i < photos; i++) {
      const bytes = randomBytes(64 * 1024);
      const key = `photos/${o.order}/many-${i}.jpg`;
      await t.storage.put(key, bytes, 'image/jpeg');
      await t.db.insert(photographs).values({ labOrderId: order?.id ?? 0, fileName: `IMG_${i}.jpg`, key, size: bytes.length, checksum: randomBytes(32).toString('hex'), contentType: 'image/jpeg', width: 600, height: 400 });
    }
    const requestedAt = new Date();
    await t.db.update(labOrders).set({ zipRequestedAt: requestedAt }).where(eq(labOrders.guid, o.order));
    // The store as the job sees it, counting the originals open at once (opened, not yet closed).
    const counting = (failAt: number | null) => {
      const seen = { open: 0, most: 0, opened: 0, closed: 0 };
      const stream = async (key: string) => {
        if (seen.opened === failAt) throw new Error('the store is gone');
        const opened = (await t.storage.stream(key)) as Readable;
        seen.opened += 1;
        seen.open += 1;
        seen.most = Math.max(seen.most, seen.open);
        opened.once('close', () => {
          seen.open -= 1;
          seen.closed += 1;
        });
        return opened;
      };
      // Every other call goes to the store itself (its own private state included).
      const storage = new Proxy(t.storage, {
        get: (target, name) => (name === 'stream' ? stream : typeof Reflect.get(target, name) === 'function' ? (Reflect.get(target, name) as (...a: unknown[]) => unknown).bind(target) : Reflect.get(target, name)),
      }) as Storage;
      return { storage, seen };
    };
    const ok = counting(null);
    await buildZip({ db: t.db, storage: ok.storage }, { orderGuid: o.order, requestedAt: requestedAt.toISOString() });
    expect(ok.seen.opened).toBe(photos);
    // Four queued (order-zip.ts ZIP_OPEN_AHEAD), and a few already in the archive whose file is
    // still closing; all 30 when every original was opened up front.
    expect(ok.seen.most).toBeLessThanOrEqual(8);
    const [built] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(built?.zipKey).toBeTruthy();
    expect((await t.storage.head(built?.zipKey ?? ''))?.size).toBeGreaterThan(photos * 64 * 1024);

    await t.db.update(labOrders).set({ zipRequestedAt: requestedAt, zipKey: null }).where(eq(labOrders.guid, o.order));
    const failing = counting(7);
    await expect(buildZip({ db: t.db, storage: failing.storage }, { orderGuid: o.order, requestedAt: requestedAt.toISOString() })).rejects.toThrow('the store is gone');
    await expect.poll(() => failing.seen.closed).toBe(failing.seen.opened);
    const [after] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(after?.zipKey).toBeNull();
  });

  it('answers 403 to photographers, and 422 for SEND TO VENDOR without a vendor configured', async () => {
    const o = await orderWithPhotos(t, 0);
    expect((await callAs(t.app, 'POST /lab_orders/:guid/create_zip_file', { params: { guid: o.order } }, { token: o.token })).status).toBe(403);
    const res = await callAs(t.app, 'POST /lab_orders/:guid/send_to_api', { params: { guid: o.order } }, { token: admin });
    expect(res.status).toBe(422);
    expect(expectErrorBody(res.json(), 422).message).toBe('No vendor API is configured.');
  });
});

describe('send_to_api', () => {
  let t: TestApp;
  let admin: string;
  const received: { headers: IncomingHttpHeaders; body: string; status: number }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      // Fails twice first, as a vendor mid-deploy would.
      const status = received.length < 2 ? 503 : 200;
      received.push({ headers: req.headers, body, status });
      res.statusCode = status;
      res.end(status === 200 ? '{"ok":true}' : 'down');
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    t = await createTestApp({ VENDOR_API_URL: `http://127.0.0.1:${port}/orders` }, { jobs: true });
    const a = await createUser(t.db, { isAdmin: true });
    admin = await signIn(t.app, a.user.email, a.password);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('POSTs the order JSON, retrying with backoff until the vendor takes it, then records last_sent_to_vendor_at', async () => {
    const p = await products(t);
    const o = await orderWithPhotos(t, 1);
    expect((await addItems(t, o.token, o.order, [payload(o.photos[0] ?? '', p.size.guid, { quantity: 3 })])).status).toBe(201);
    expect((await callAs(t.app, 'POST /lab_orders/:guid/send_to_api', { params: { guid: o.order } }, { token: admin })).status).toBe(200);
    await expect
      .poll(async () => (await orderDetail(t, admin, o.order)).last_sent_to_vendor_at, { timeout: 60_000, interval: 500 })
      .not.toBeNull();
    expect(received.map((r) => r.status)).toEqual([503, 503, 200]);
    // One send: the same idempotency key on every try.
    expect(new Set(received.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    const sent = JSON.parse(received[2]?.body ?? '{}');
    expect(sent.order).toMatchObject({ guid: o.order, photographer: { email: o.user.email } });
    expect(sent.order.line_items).toHaveLength(1);
    expect(sent.order.line_items[0]).toMatchObject({ quantity: 3, photograph_guid: o.photos[0] });
    const events = (await orderDetail(t, admin, o.order)).events?.map((e) => e.detail) ?? [];
    expect(events[0]).toBe('Received by the vendor');
    expect(events.filter((d) => d?.startsWith('Send failed'))).toHaveLength(2);
  }, 90_000);
});
