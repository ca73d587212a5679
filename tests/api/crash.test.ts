import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { eq, isNull, sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { isWriteLeftover } from '../../server/adapters/storage/local-leftovers.ts';
import type { CrashPoint } from '../../server/crash-point.ts';
import { embeddedDatabaseDir, embeddedDatabaseExists } from '../../server/db/client.ts';
import { addresses, idempotencyKeys, payments, sandboxCharges } from '../../server/db/schema.ts';
import type { Paper } from '../../src/contract/catalogue.ts';
import { lineItemPayload } from '../../src/domain/line-item-payload.ts';
import { bigJpeg, MiB, sha256 } from './photo-helpers.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';

/**
 * The lab killed with kill -9 in the middle of its work, then started again, as a power cut or an
 * out-of-memory kill does it: what was under way finishes by itself, nothing is made or charged
 * twice, and nothing is left behind. Real server processes on the embedded database (PGlite). The
 * windows too short to hit from outside are hit by LAB_TEST_CRASH_AT (server/crash-point.ts).
 */
// Photos big enough that writing their zip takes a moment, so the kill lands inside it.
const PHOTOS = 3;
const PHOTO_BYTES = 16 * MiB;

type LabDb = ReturnType<typeof drizzle>;

/**
 * A lab of its own for each window (a test that runs out of time goes on in the background, and
 * must not trip the next one): started with the window's crash point, killed, started again.
 */
function crashLab(port: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lab-crash-'));
  const started: ServerProcess[] = [];
  let server: ServerProcess | null = null;
  const stop = async () => {
    await server?.stop();
    server = null;
  };
  /** Starts the lab (stopping the one running), set to kill itself at `crashAt` if given. */
  const start = async (crashAt?: CrashPoint): Promise<ServerProcess> => {
    await stop();
    // Created from the suite's migrated snapshot: the server's own first start (its migrations
    // included) is tested elsewhere, and on a busy machine is what takes longest here.
    if (!embeddedDatabaseExists(dataDir)) await (await PGlite.create(embeddedDatabaseDir(dataDir), { loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot'))]) })).close();
    const next = startServer({ DATA_DIR: dataDir, PORT: String(port), ...(crashAt ? { LAB_TEST_CRASH_AT: crashAt } : {}) });
    started.push(next);
    server = next;
    // A start that fails leaves nothing running for the next test to trip over.
    await next.ready().catch(async (err: unknown) => {
      next.child.kill('SIGKILL');
      server = null;
      throw err;
    });
    return next;
  };
  return {
    dataDir,
    port,
    start,
    /** Waits for the lab's kill -9 (its own, at the crash point, or ours with `now`). */
    async killed(now = false) {
      if (now) server?.child.kill('SIGKILL');
      await server?.exited;
      expect(server?.child.signalCode).toBe('SIGKILL');
      server = null;
    },
    /**
     * The lab's database opened with no server running, as its owner would with psql. A claim
     * and a pending payment are taken over only once a minute has passed since they were made
     * (no process can still be working on them): a lab restarted within seconds waits that
     * minute, and aMinutePasses moves their clock instead.
     */
    async whileDown<T>(fn: (db: LabDb) => Promise<T>): Promise<T> {
      await stop();
      const database = await PGlite.create(embeddedDatabaseDir(dataDir));
      try {
        return await fn(drizzle({ client: database }));
      } finally {
        await database.close();
      }
    },
    async close() {
      for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      await Promise.all(started.map((s) => s.exited));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
const labs: ReturnType<typeof crashLab>[] = [];
afterAll(() => Promise.all(labs.map((l) => l.close())));
async function newLab() {
  const lab = crashLab(await freePort());
  labs.push(lab);
  return { lab, admin: adminClient(lab.port) };
}

const aMinutePasses = async (db: LabDb) => {
  await db.update(idempotencyKeys).set({ createdAt: sql`${idempotencyKeys.createdAt} - interval '2 minutes'` }).where(isNull(idempotencyKeys.statusCode));
  await db.update(payments).set({ createdAt: sql`${payments.createdAt} - interval '2 minutes'` }).where(eq(payments.status, 'pending'));
};

function adminClient(port: number) {
  let token = '';
  let keys = 0;
  /** A call; changes carry a fresh Idempotency-Key unless `key` names one. */
  const send = async (method: string, path: string, body?: unknown, key = method === 'GET' ? '' : `crash-${Date.now()}-${(keys += 1)}`) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v2${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { token } : {}), ...(key ? { 'idempotency-key': key } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> & { data: { attributes: Record<string, unknown> } } };
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await send(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const sign = async (order: string, name: string, file: Buffer) =>
    (await call('POST', `/lab_orders/${order}/create_presigned_url`, { lab_order_guid: order, photo_file_name: name, content_type: 'image/jpeg', size: file.length, checksum: sha256(file) })) as unknown as {
      signedUrl: string;
      key: string;
    };
  const confirm = async (order: string, name: string, file: Buffer, key: string) =>
    ((await call('PATCH', `/lab_orders/${order}/photograph_uploaded`, { key, photo_file_name: name, checksum: sha256(file), size: file.length })) as unknown as { data: { guid: string } }).data.guid;
  return {
    send,
    call,
    sign,
    confirm,
    async signIn() {
      token = (await call('POST', '/login', { email: 'admin@example.com', password: 'admin-password' })).token as string;
    },
    newOrder: async (name: string) => (await call('POST', '/lab_orders', { order_name: name })).data.attributes.guid as string,
    /** A whole upload; answers the photo's guid. */
    async upload(order: string, name: string, file: Buffer) {
      const signed = await sign(order, name, file);
      const put = await fetch(`http://127.0.0.1:${port}${signed.signedUrl}`, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: file });
      expect(put.status).toBe(200);
      return confirm(order, name, file, signed.key);
    },
  };
}

const leftovers = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => isWriteLeftover(n)) : []);

const ADDRESS = { street_address: '1 Main St', recipient_name: 'Dorothea Lange', city: 'Nashville', state: 'TN', zip: '37201' };

// The embedded database's own recovery: run once, in npm test's PGlite pass.
describe.skipIf(process.env.API_TEST_DATABASE === 'postgres')('a kill -9 in the middle of the lab’s work (PGlite pass only)', () => {
  it('an address saved but not answered: the retry with its key answers that address and saves no second one', { timeout: 120_000 }, async () => {
    const { lab, admin } = await newLab();
    await lab.start('idempotent-change-committed');
    await admin.signIn();
    await expect(admin.send('POST', '/addresses', ADDRESS, 'crash-address')).rejects.toThrow('fetch failed');
    await lab.killed();
    // Killed inside the window: the address is saved, its key claimed with no answer stored.
    const saved = await lab.whileDown(async (db) => {
      expect((await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'crash-address')))[0]?.statusCode).toBeNull();
      await aMinutePasses(db);
      return (await db.select({ guid: addresses.guid }).from(addresses)).map((a) => a.guid);
    });
    expect(saved).toHaveLength(1);

    await lab.start();
    await admin.signIn();
    const retried = await admin.send('POST', '/addresses', ADDRESS, 'crash-address');
    expect(retried.status).toBe(200);
    const listed = (answer: Record<string, unknown>) => (answer.addresses as { data: { guid: string }[] }).data.map((a) => a.guid);
    expect(listed(retried.json)).toEqual(saved);
    // From now on its stored answer is replayed.
    const again = await admin.send('POST', '/addresses', ADDRESS, 'crash-address');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(retried.json);
    expect(listed(await admin.call('GET', '/profile'))).toEqual(saved);
  });

  it('a checkout killed with its card charged: recovery pays the order, the retry with its key gets it paid, charged once', { timeout: 120_000 }, async () => {
    const { lab, admin } = await newLab();
    await lab.start('payment-pending');
    await admin.signIn();
    const order = await admin.newOrder('Killed checkout');
    const picture = await admin.upload(order, 'IMG_1.jpg', await bigJpeg(64 * 1024));
    const size = ((await admin.call('GET', '/papers_with_details')).data as unknown as Paper[])[0]?.print_size_pricings[0]?.guid ?? '';
    const item = lineItemPayload({ guid: randomUUID(), photo: { guid: picture, photo_file_name: 'IMG_1.jpg' }, selections: { printSizeGuid: size, qty: 1, notes: {} }, finishing: null });
    await admin.call('POST', `/lab_orders/${order}/line_items`, { line_items: [item] });
    await admin.call('POST', '/accounts/create_card', { token_id: 'tok_visa', lab_order_id: order });
    await admin.call('POST', '/addresses', { ...ADDRESS, lab_order_id: order, update_address_on_order: true });
    await expect(admin.send('POST', `/lab_orders/${order}/checkout`, {}, 'crash-checkout')).rejects.toThrow('fetch failed');
    await lab.killed();
    const chargesOf = (db: LabDb) => db.select().from(sandboxCharges).where(sql`${sandboxCharges.metadata} ->> 'lab_order' = ${order}`);
    // Killed inside the window: the card charged, the payment still pending.
    const [charged] = await lab.whileDown(async (db) => {
      expect(await db.select().from(payments).where(eq(payments.status, 'pending'))).toHaveLength(1);
      await aMinutePasses(db);
      return chargesOf(db);
    });
    expect(charged?.status).toBe('succeeded');

    await lab.start();
    await admin.signIn();
    // Recovery at start finds the charge and pays the order.
    await vi.waitFor(async () => expect((await admin.call('GET', `/lab_orders/${order}`)).data.attributes.status).toBe('paid'), { timeout: 30_000, interval: 200 });
    const retried = await admin.send('POST', `/lab_orders/${order}/checkout`, {}, 'crash-checkout');
    expect(retried.status).toBe(200);
    expect(retried.json.data.attributes).toMatchObject({ status: 'paid', stripe_order_confirmation: charged?.id });
    expect(await lab.whileDown(chargesOf)).toHaveLength(1);
  });

  it('a photo killed half-way through its PUT: its temporary file is swept at the restart, and the upload finishes', { timeout: 120_000 }, async () => {
    const { lab, admin } = await newLab();
    await lab.start();
    await admin.signIn();
    const order = await admin.newOrder('Killed upload');
    const file = await bigJpeg(8 * MiB);
    const signed = await admin.sign(order, 'IMG_1.jpg', file);
    const put = request(`http://127.0.0.1:${lab.port}${signed.signedUrl}`, { method: 'PUT', headers: { 'content-type': 'image/jpeg', 'content-length': file.length } });
    // The server dies under it.
    put.on('error', () => {});
    put.write(file.subarray(0, file.length / 2));
    // Where the store writes the upload (incoming/… until photograph_uploaded accepts it).
    const photos = join(lab.dataDir, 'objects', dirname(signed.key));
    const halfWritten = () => leftovers(photos).filter((n) => statSync(join(photos, n)).size > 0);
    await vi.waitFor(() => expect(halfWritten()).not.toEqual([]), { timeout: 30_000, interval: 20 });
    await lab.killed(true);
    put.destroy();
    expect(leftovers(photos)).not.toEqual([]);

    await lab.start();
    await vi.waitFor(() => expect(leftovers(photos)).toEqual([]), { timeout: 30_000, interval: 100 });
    await admin.signIn();
    const again = await fetch(`http://127.0.0.1:${lab.port}${signed.signedUrl}`, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: file });
    expect(again.status).toBe(200);
    expect(await admin.confirm(order, 'IMG_1.jpg', file, signed.key)).toBeTruthy();
    expect(leftovers(photos)).toEqual([]);
  });

  it('a zip killed while it is written is made after the restart, and its half-written file is removed', { timeout: 240_000 }, async () => {
    const { lab, admin } = await newLab();
    await lab.start();
    await admin.signIn();
    const order = await admin.newOrder('Killed zip');
    for (let i = 1; i <= PHOTOS; i++) await admin.upload(order, `IMG_${i}.jpg`, await bigJpeg(PHOTO_BYTES));

    const zips = join(lab.dataDir, 'objects', 'zips', order);
    await admin.call('POST', `/lab_orders/${order}/create_zip_file`, {});
    // The moment the zip's file is being written, the process is killed.
    await vi.waitFor(() => expect(leftovers(zips)).not.toEqual([]), { timeout: 60_000, interval: 5 });
    await lab.killed(true);
    expect(leftovers(zips)).not.toEqual([]);

    await lab.start();
    await admin.signIn();
    const link = await vi.waitFor(
      async () => {
        const attributes = (await admin.call('GET', `/lab_orders/${order}`)).data.attributes as { download_all_link: string | null };
        expect(attributes.download_all_link).toBeTruthy();
        return attributes.download_all_link ?? '';
      },
      { timeout: 120_000, interval: 500 },
    );
    const zip = Buffer.from(await (await fetch(`http://127.0.0.1:${lab.port}${link}`)).arrayBuffer());
    // A stored zip: every photo whole, nothing half-written left beside it.
    expect(zip.length).toBeGreaterThan(PHOTOS * PHOTO_BYTES);
    await vi.waitFor(() => expect(leftovers(zips)).toEqual([]), { timeout: 30_000 });
  });
});
