/**
 * `--only=previews` (issue 32): how soon the lab's previews of each photo are ready after that
 * photo's own upload completes. 40 camera-like JPEGs of about 12 MB go through the API's own upload
 * calls (create_presigned_url, the PUT, photograph_uploaded) from Node, four at once as the app
 * sends them, their bodies paced together by one token bucket at the link's speed. The order's
 * photos are polled as the app polls them (lab_order_photographs, derivatives_ready) meanwhile.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API, routePath } from '../../src/domain/paths.ts';
import { onCleanup } from './cleanup.ts';
import { type Row, verdict } from './report.ts';
import { startServer } from './server-process.ts';
import { callApi, cameraBatch, createOrder, median, sha256, signInToken } from './upload-bench-kit.ts';

// The order issue 32 measured: 40 photos of about 12 MB on a 100 Mbit/s link.
const PHOTOS = 40;
const MEGABYTES = 12;
const LINK_BITS_PER_S = 100e6;
// The app's upload queue keeps this many PUTs in flight (tests/bench/upload.ts PUTS_IN_FLIGHT).
const PUTS_IN_FLIGHT = 4;
// Bodies are paced in chunks of this size.
const CHUNK_BYTES = 64 * 1024;
// The bucket holds a few chunks (about 20 ms of the link): a timer that fires late on a busy
// machine is made up for, and the pace still holds from the first byte.
const BURST_BYTES = 4 * CHUNK_BYTES;
// How often the order's photos are read while waiting: fine enough for a 10 s median.
const POLL_MS = 500;
// Past this the run stops waiting; the photos still without previews count as this late.
const GIVE_UP_MS = 10 * 60_000;
const TARGET_MEDIAN_S = 10;
const TARGET_P95_S = 30;
// The upload's own target on a throttled link (issue 32, uploads at the link's speed).
const MAX_SLOWER = 1.05;

/** One bucket for every body in flight: together they never go faster than the link. */
class TokenBucket {
  #available = BURST_BYTES;
  #last = performance.now();
  constructor(private readonly bytesPerSecond: number) {}

  async take(bytes: number): Promise<void> {
    for (;;) {
      const now = performance.now();
      this.#available = Math.min(BURST_BYTES, this.#available + ((now - this.#last) / 1000) * this.bytesPerSecond);
      this.#last = now;
      if (this.#available >= bytes) {
        this.#available -= bytes;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.ceil(((bytes - this.#available) / this.bytesPerSecond) * 1000)));
    }
  }
}

function pacedBody(bytes: Buffer, bucket: TokenBucket): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      if (at >= bytes.length) return controller.close();
      const chunk = bytes.subarray(at, at + CHUNK_BYTES);
      await bucket.take(chunk.length);
      at += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

interface Presigned {
  signedUrl: string;
  key: string;
  headers: Record<string, string>;
}

/** The app's three calls for one photo; answers when photograph_uploaded has answered. */
async function uploadPhoto(origin: string, token: string, order: string, path: string, bucket: TokenBucket): Promise<{ guid: string; doneAt: number }> {
  const bytes = readFileSync(path);
  const name = path.split('/').pop() ?? 'photo.jpg';
  const checksum = sha256(bytes);
  const signed = await callApi<Presigned>(origin, token, 'POST', routePath(API.createPresignedUrl, { guid: order }), {
    lab_order_guid: order,
    photo_file_name: name,
    content_type: 'image/jpeg',
    size: bytes.length,
    checksum,
  });
  if (signed.status !== 200) throw new Error(`create_presigned_url answered ${signed.status}`);
  const url = new URL(signed.body.signedUrl, origin);
  const put = await fetch(url, { method: 'PUT', headers: signed.body.headers, body: pacedBody(bytes, bucket), duplex: 'half' } as RequestInit);
  if (!put.ok) throw new Error(`the PUT of ${name} answered ${put.status}`);
  await put.arrayBuffer();
  const confirmed = await callApi<{ data: { guid: string } }>(origin, token, 'PATCH', routePath(API.photographUploaded, { guid: order }), {
    key: signed.body.key,
    photo_file_name: name,
    checksum,
    size: bytes.length,
  });
  if (confirmed.status !== 201) throw new Error(`photograph_uploaded of ${name} answered ${confirmed.status}`);
  return { guid: confirmed.body.data.guid, doneAt: performance.now() };
}

/**
 * The same bytes, paced and four at a time alike, PUT to a plain Node server that only reads them:
 * what the link and this machine's load allow, with no lab and no previews behind it.
 */
async function plainPuts(paths: string[], bucket: TokenBucket): Promise<number> {
  const sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end());
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const address = sink.address();
  if (!address || typeof address === 'string') throw new Error('the plain server has no port');
  try {
    const started = performance.now();
    const queue = [...paths];
    await Promise.all(
      Array.from({ length: PUTS_IN_FLIGHT }, async () => {
        for (let path = queue.shift(); path; path = queue.shift()) {
          const put = await fetch(`http://127.0.0.1:${address.port}/`, { method: 'PUT', body: pacedBody(readFileSync(path), bucket), duplex: 'half' } as RequestInit);
          await put.arrayBuffer();
        }
      }),
    );
    return performance.now() - started;
  } finally {
    await new Promise((resolve) => sink.close(resolve));
  }
}

/** Reads the order's photos until every one is ready; answers when each was first seen ready. */
async function watchPreviews(origin: string, token: string, order: string, until: () => boolean, readyAt: Map<string, number>): Promise<void> {
  const from = performance.now();
  const path = `${routePath(API.labOrderPhotographs, { guid: order })}?page=1&per_page=100`;
  while (performance.now() - from < GIVE_UP_MS) {
    const answer = await callApi<{ data: { guid: string; derivatives_ready: boolean }[] }>(origin, token, 'GET', path);
    const now = performance.now();
    for (const photo of answer.body.data) if (photo.derivatives_ready && !readyAt.has(photo.guid)) readyAt.set(photo.guid, now);
    if (until() && answer.body.data.length === PHOTOS && answer.body.data.every((p) => p.derivatives_ready)) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? 0;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function measurePreviews(opts: { port: number; log: (line: string) => void }): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'lab-bench-previews-'));
  onCleanup(() => rmSync(root, { recursive: true, force: true }));
  const batch = await cameraBatch(mkdtempSync(join(root, 'photos-')), PHOTOS, MEGABYTES);
  const server = await startServer({ port: opts.port, dataDir: join(root, 'data') });
  try {
    const { origin } = server;
    const token = await signInToken(origin);
    const order = await createOrder(origin, token, `bench previews ${Date.now()}`);
    if (!order) throw new Error('POST /lab_orders made no order');
    const bucket = new TokenBucket(LINK_BITS_PER_S / 8);
    const plainMs = await plainPuts(batch.paths, bucket);
    const done = new Map<string, number>();
    const readyAt = new Map<string, number>();
    let finished = false;
    const watching = watchPreviews(origin, token, order, () => finished, readyAt);
    const started = performance.now();
    const queue = [...batch.paths];
    await Promise.all(
      Array.from({ length: PUTS_IN_FLIGHT }, async () => {
        for (let path = queue.shift(); path; path = queue.shift()) {
          const photo = await uploadPhoto(origin, token, order, path, bucket);
          done.set(photo.guid, photo.doneAt);
        }
      }),
    );
    const uploadMs = performance.now() - started;
    finished = true;
    await watching;
    const waits = [...done].map(([guid, at]) => (readyAt.get(guid) ?? at + GIVE_UP_MS) - at);
    const linkMs = ((batch.bytes * 8) / LINK_BITS_PER_S) * 1000;
    const slower = uploadMs / plainMs;
    const p50 = median(waits);
    const p95 = percentile(waits, 95);
    opts.log(
      `previews: ${PHOTOS} photos, ${(batch.bytes / 1e6).toFixed(0)} MB uploaded in ${seconds(uploadMs)} (plain PUTs of the same bytes ${seconds(plainMs)}, the link alone ${seconds(linkMs)}); ` +
        `each photo's previews ready after its upload: median ${seconds(p50)}, p95 ${seconds(p95)}, longest ${seconds(Math.max(...waits))}; ` +
        `${readyAt.size} of ${PHOTOS} ready, the last ${seconds(Math.max(...readyAt.values()) - started - uploadMs)} after the upload ended`,
    );
    const area = 'previews';
    const what = `${PHOTOS} photos of ${MEGABYTES} MB at ${LINK_BITS_PER_S / 1e6} Mbit/s`;
    return [
      { area, figure: `previews ready after the photo's upload, median (${what})`, value: seconds(p50), target: `<= ${TARGET_MEDIAN_S} s`, result: verdict(p50 <= TARGET_MEDIAN_S * 1000) },
      { area, figure: `previews ready after the photo's upload, p95 (${what})`, value: seconds(p95), target: `<= ${TARGET_P95_S} s`, result: verdict(p95 <= TARGET_P95_S * 1000) },
      // Previews made during the upload must not slow it: the whole upload (the lab's calls, its
      // checks and the previews made meanwhile) against plain PUTs of the same bytes.
      { area, figure: 'upload while previews are made ÷ plain PUTs, same link', value: slower.toFixed(3), target: `<= ${MAX_SLOWER}`, result: verdict(slower <= MAX_SLOWER) },
    ];
  } finally {
    await server.stop();
  }
}
