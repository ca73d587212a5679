/**
 * Pieces of the upload benchmark (tests/bench/upload.ts): the real lab server on a free port, the
 * lab's API with a token, camera-like photos on disk, and the JS heap of the page and its workers
 * read through the DevTools protocol. Node only: browser code is sent as strings, since this file
 * is checked without the DOM's types.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import sharp from 'sharp';
import { withExifPreview } from '../unit/fixtures/exif-jpeg.ts';

export const DEMO_ADMIN = { email: 'admin@example.com', password: 'admin-password' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** The lab server as `npm start` runs it (built client included), on loopback, in `dataDir`. */
export async function startLab(dataDir: string): Promise<{ origin: string; stop: () => void }> {
  const port = await freePort();
  // node --import tsx, one process; BENCH_NODE_OPTIONS adds Node flags for the server only, e.g.
  // --cpu-prof --cpu-prof-dir=/tmp/prof (the profile is written when the server stops).
  const nodeFlags = (process.env.BENCH_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_NO_WARNINGS: '1', LOGIN_RATE_LIMIT: '1000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  // A first start creates the database and loads the catalogue: up to two minutes on 2 busy cores.
  for (let i = 0; i < 240; i++) {
    const up = await fetch(`${origin}/api/v2/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { origin, stop: () => child.kill('SIGTERM') };
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGTERM');
  throw new Error('the lab server did not start');
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

export async function callApi<T>(origin: string, token: string | null, method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: 'application/json', 'idempotency-key': randomBytes(12).toString('hex') };
  if (token) headers.token = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${origin}/api/v2${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

export async function signInToken(origin: string): Promise<string> {
  const answer = await callApi<{ token: string }>(origin, null, 'POST', '/login', DEMO_ADMIN);
  if (answer.status !== 200) throw new Error(`login answered ${answer.status}`);
  return answer.body.token;
}

/** A new open order; null when the server does not offer POST /lab_orders yet. */
export async function createOrder(origin: string, token: string, name: string): Promise<string | null> {
  const answer = await callApi<{ data?: { attributes?: { guid?: string } } }>(origin, token, 'POST', '/lab_orders', { order_name: name });
  return answer.status === 201 ? (answer.body.data?.attributes?.guid ?? null) : null;
}

/** The lab's previews of an order are made by a background job; the next run waits for them. */
const SETTLE_MAX_MS = 5 * 60_000;

/**
 * Waits until the lab has made the previews of every photo of `orderGuid` (or found it
 * unreadable), so the next run does not share the server with the last one's background work;
 * answers the ms waited.
 */
export async function settle(origin: string, token: string, orderGuid: string): Promise<number> {
  const from = Date.now();
  while (Date.now() - from < SETTLE_MAX_MS) {
    let busy = false;
    for (let page = 1; !busy; page++) {
      const answer = await callApi<{ data: { derivatives_ready: boolean; unreadable_reason: string | null }[]; meta: { total: number; per_page: number } }>(
        origin,
        token,
        'GET',
        `/lab_orders/${orderGuid}/lab_order_photographs?page=${page}&per_page=100`,
      );
      busy = answer.body.data.some((p) => !p.derivatives_ready && !p.unreadable_reason);
      if (page * answer.body.meta.per_page >= answer.body.meta.total) break;
    }
    if (!busy) return Date.now() - from;
    await new Promise((r) => setTimeout(r, 2000));
  }
  return Date.now() - from;
}

const noise = (width: number, height: number) => sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });

/** A 160×120 preview, as cameras embed in IFD1. */
export const exifPreview = async () => new Uint8Array(await noise(160, 120).jpeg({ quality: 70 }).toBuffer());

/** A JPEG comment segment: a different photo to every checksum, the same picture. */
function withComment(jpeg: Uint8Array, text: string): Uint8Array {
  const payload = new TextEncoder().encode(text);
  const segment = new Uint8Array([0xff, 0xfe, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload]);
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2), 0);
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}

/**
 * `count` camera-like JPEGs of about `megabytes` MB with EXIF previews: a few different pictures
 * (noise compresses like a detailed photo), each written many times with its own comment, so
 * every file has its own checksum without minutes of encoding.
 */
export async function cameraBatch(dir: string, count: number, megabytes: number): Promise<{ paths: string[]; bytes: number }> {
  const pixels = (megabytes * 1e6) / 2.92;
  const width = Math.round(Math.sqrt(pixels * 1.5));
  const height = Math.round(width / 1.5);
  const preview = await exifPreview();
  const bases: Uint8Array[] = [];
  for (let i = 0; i < Math.min(8, count); i++) {
    bases.push(withExifPreview(new Uint8Array(await noise(width, height).jpeg({ quality: 100, chromaSubsampling: '4:4:4' }).toBuffer()), preview));
  }
  const paths: string[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const file = withComment(bases[i % bases.length] ?? new Uint8Array(), `bench photo ${i}`);
    const path = join(dir, `DSC_${String(i + 1).padStart(4, '0')}.jpg`);
    writeFileSync(path, file);
    paths.push(path);
    bytes += file.length;
  }
  return { paths, bytes };
}

/** A 24-megapixel (6000×4000) camera JPEG, with and without its EXIF preview. */
export async function camera24mp(dir: string): Promise<{ withPreview: string; withoutPreview: string }> {
  // Smooth gradients with a little grain: a camera file of ordinary size, not a noise monster.
  const width = 6000;
  const height = 4000;
  const raw = Buffer.alloc(width * height * 3);
  const grain = randomBytes(width * height);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i += 3) {
      const g = (grain[y * width + x] ?? 0) >> 4;
      raw[i] = ((x * 255) / width + g) & 0xff;
      raw[i + 1] = ((y * 255) / height + g) & 0xff;
      raw[i + 2] = (((x + y) * 127) / width + g) & 0xff;
    }
  }
  const jpeg = new Uint8Array(await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
  const withPreview = join(dir, 'camera-24mp-preview.jpg');
  const withoutPreview = join(dir, 'camera-24mp-plain.jpg');
  writeFileSync(withPreview, withExifPreview(jpeg, await exifPreview(), { orientation: 1 }));
  writeFileSync(withoutPreview, jpeg);
  return { withPreview, withoutPreview };
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The JS heap of a page and of every worker it starts (the upload worker among them), summed and
 * sampled. Playwright offers no DevTools session for a worker, so the page's own session
 * auto-attaches to them (not flattened) and asks each through Target.sendMessageToTarget.
 */
export class HeapSampler {
  peak = 0;
  #timer: ReturnType<typeof setInterval> | null = null;
  readonly #workers = new Set<string>();
  #id = 0;

  private constructor(private readonly cdp: CDPSession) {
    cdp.on('Target.attachedToTarget', (e) => {
      if (e.targetInfo.type === 'worker') this.#workers.add(e.sessionId);
    });
    cdp.on('Target.detachedFromTarget', (e) => {
      if (e.sessionId) this.#workers.delete(e.sessionId);
    });
  }

  static async of(page: Page): Promise<HeapSampler> {
    const cdp = await page.context().newCDPSession(page);
    const sampler = new HeapSampler(cdp);
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    return sampler;
  }

  #askWorker(sessionId: string): Promise<number> {
    const id = ++this.#id;
    return new Promise((resolve) => {
      const done = (bytes: number) => {
        clearTimeout(timeout);
        this.cdp.off('Target.receivedMessageFromTarget', on);
        resolve(bytes);
      };
      const timeout = setTimeout(() => done(0), 2000);
      const on = (e: { sessionId: string; message: string }) => {
        const m = JSON.parse(e.message) as { id?: number; result?: { usedSize?: number } };
        if (e.sessionId === sessionId && m.id === id) done(m.result?.usedSize ?? 0);
      };
      this.cdp.on('Target.receivedMessageFromTarget', on);
      this.cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }) }).catch(() => done(0));
    });
  }

  async sample(): Promise<number> {
    const page = (await this.cdp.send('Runtime.getHeapUsage')).usedSize;
    const workers = await Promise.all([...this.#workers].map((w) => this.#askWorker(w)));
    const total = page + workers.reduce((a, b) => a + b, 0);
    this.peak = Math.max(this.peak, total);
    return total;
  }

  start(everyMs = 500): void {
    this.#timer = setInterval(() => void this.sample().catch(() => undefined), everyMs);
  }

  stop(): number {
    if (this.#timer) clearInterval(this.#timer);
    return this.peak;
  }
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
