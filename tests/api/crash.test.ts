import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { noisyJpeg } from './hostile-files.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';

/**
 * The lab killed with kill -9 in the middle of its work, then started again, as a power cut or an
 * out-of-memory kill does it: what was under way finishes by itself and nothing is left behind.
 * Real server processes on the embedded database (PGlite), whose job supervisor is off.
 */
const dirs: string[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// Photos big enough that writing their zip takes a moment, so the kill lands inside it.
const PHOTOS = 3;
const PHOTO_BYTES = 16 * 1024 * 1024;

async function lab(dataDir: string, port: number) {
  const server = startServer({ DATA_DIR: dataDir, PORT: String(port) });
  servers.push(server);
  await server.ready();
  return server;
}

function client(port: number) {
  let token = '';
  let keys = 0;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v2${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { token } : {}), ...(method === 'GET' ? {} : { 'idempotency-key': `crash-${Date.now()}-${(keys += 1)}` }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    call,
    async signIn() {
      token = (await call('POST', '/login', { email: 'admin@example.com', password: 'admin-password' })).token as string;
    },
    async upload(order: string, name: string, file: Buffer) {
      const checksum = createHash('sha256').update(file).digest('hex');
      const signed = (await call('POST', `/lab_orders/${order}/create_presigned_url`, { lab_order_guid: order, photo_file_name: name, content_type: 'image/jpeg', size: file.length, checksum })) as {
        signedUrl: string;
        key: string;
      };
      const put = await fetch(`http://127.0.0.1:${port}${signed.signedUrl}`, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: file });
      expect(put.status).toBe(200);
      await call('PATCH', `/lab_orders/${order}/photograph_uploaded`, { key: signed.key, photo_file_name: name, checksum, size: file.length });
    },
  };
}

const leftovers = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => /\.writing-[0-9a-f]+$/.test(n)) : []);

// The embedded database's own recovery: run once, in npm test's PGlite pass.
describe.skipIf(process.env.API_TEST_DATABASE === 'postgres')('a kill -9 in the middle of the lab’s work (PGlite pass only)', () => {
  it('a zip killed while it is written is made after the restart, and its half-written file is removed', { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lab-crash-'));
    dirs.push(dataDir);
    const port = await freePort();
    const first = await lab(dataDir, port);
    const admin = client(port);
    await admin.signIn();
    const order = ((await admin.call('POST', '/lab_orders', { order_name: 'Killed zip' })) as { data: { attributes: { guid: string } } }).data.attributes.guid;
    const jpeg = await noisyJpeg(320, 240);
    for (let i = 1; i <= PHOTOS; i++) await admin.upload(order, `IMG_${i}.jpg`, Buffer.concat([jpeg, randomBytes(PHOTO_BYTES - jpeg.length)]));

    const zips = join(dataDir, 'objects', 'zips', order);
    await admin.call('POST', `/lab_orders/${order}/create_zip_file`, {});
    // The moment the zip's file is being written, the process is killed.
    await vi.waitFor(() => expect(leftovers(zips)).not.toEqual([]), { timeout: 60_000, interval: 5 });
    first.child.kill('SIGKILL');
    await first.exited;
    expect(leftovers(zips)).not.toEqual([]);

    await lab(dataDir, port);
    await admin.signIn();
    const link = await vi.waitFor(
      async () => {
        const attributes = ((await admin.call('GET', `/lab_orders/${order}`)) as { data: { attributes: { download_all_link: string | null } } }).data.attributes;
        expect(attributes.download_all_link).toBeTruthy();
        return attributes.download_all_link ?? '';
      },
      { timeout: 120_000, interval: 500 },
    );
    const zip = Buffer.from(await (await fetch(`http://127.0.0.1:${port}${link}`)).arrayBuffer());
    // A stored zip: every photo whole, nothing half-written left beside it.
    expect(zip.length).toBeGreaterThan(PHOTOS * PHOTO_BYTES);
    await vi.waitFor(() => expect(leftovers(zips)).toEqual([]), { timeout: 30_000 });
  });
});
