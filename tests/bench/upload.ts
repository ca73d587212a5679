/**
 * npm run bench:upload: the photo upload of issues 10 and 14 measured in Chromium against the real
 * lab server and its local storage, printing in one run:
 *   (a) throughput of the upload queue as a ratio to plain concurrent PUTs of the same bytes to
 *       the same server (target >= 0.95);
 *   (p) the peer: the same photos sent to the same storage through the same lab calls by Uppy's S3
 *       uploader (@uppy/aws-s3 6.3.1, tests/bench/upload-peer.ts) at the same PUTs in flight: our
 *       time / Uppy's time (target <= 0.9);
 *   (b) bytes sent again after a forced mid-upload disconnect (target <= one part per PUT in flight);
 *   (c) the longest main-thread task during the upload (Long Tasks API; target < 50 ms);
 *   (d) the peak JS heap of the page and its workers during a 500-photo upload (target < 300 MB);
 *   (e) the first thumbnail of a 24-megapixel camera JPEG with an embedded EXIF preview and of one
 *       without, each against createImageBitmap resizing the same file (target with a preview:
 *       at most 50 ms).
 * Then the throttled-link mode (tests/bench/upload-link.ts): ours against plain PUTs through one
 * shared link of 100 and 20 Mbit/s, its rows written to docs/performance.md.
 * Not part of npm test. BENCH_UPLOAD_FILES and BENCH_UPLOAD_MB change the batch (default 200
 * photos of about 20 MB); BENCH_MEMORY_FILES the (d) batch (default 500, 0 skips it);
 * BENCH_UPLOAD_SKIP=peer,baseline,disconnect skips those runs, =unthrottled all of (a)-(e);
 * BENCH_UPLOAD_LINKS=20 runs one link only, =none no link.
 * BENCH_UPLOAD_PROFILE=<file> writes the page's CPU profile of the upload (a);
 * BENCH_UPLOAD_WORKER_PROFILE=<prefix> the upload worker's (<prefix>-<n>.cpuprofile);
 * BENCH_UPLOAD_CHROME_TRACE=<file> writes a Chromium performance trace of it (open it in DevTools'
 * Performance panel; build with --minify false for names).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { MULTIPART_THRESHOLD } from '../../src/upload/shared/multipart-plan.ts';
import { PART_SIZE } from '../../server/services/photo-upload-service.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/browser.ts';
import { StorageProxy } from '../e2e/storage-proxy.ts';
import { writePerformanceDoc } from './performance-doc.ts';
import { formatTable, type Row } from './report.ts';
import { camera24mp, cameraBatch, createOrder, settle, signInToken, startLab } from './upload-bench-kit.ts';
import { LONG_TASKS, filesInPage, thumbnailFigures } from './upload-bench-page.ts';
import { buildUppyPage, runUppy, uppyRoutes } from './upload-peer.ts';
import { cpuBetween, cpuSnapshot } from './process-cpu.ts';
import { LINKS_MBIT, linkRows } from './upload-link.ts';
import { PUTS_IN_FLIGHT, plainPuts, queueRun, signIn } from './upload-runs.ts';

const FILES = Number(process.env.BENCH_UPLOAD_FILES ?? 200);
const MEGABYTES = Number(process.env.BENCH_UPLOAD_MB ?? 20);
/** Issue 14's memory figure is taken during a 500-photo upload. */
const MEMORY_FILES = Number(process.env.BENCH_MEMORY_FILES ?? 500);
const SKIP = new Set((process.env.BENCH_UPLOAD_SKIP ?? '').split(',').filter(Boolean));
/** The disconnect run: enough files that several are in flight when the link drops. */
const DISCONNECT_FILES = Math.min(20, FILES);
const MB = 1e6;
/** What was run, with the bench's own settings, for docs/performance.md: anyone can run it again. */
const BENCH_COMMAND = [
  ...Object.entries(process.env)
    .filter(([k]) => k.startsWith('BENCH_'))
    .map(([k, v]) => `${k}=${v}`),
  'npm run bench:upload',
].join(' ');

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const bytesOf = (paths: string[]) => paths.reduce((sum, p) => sum + statSync(p).size, 0);

/** (b): the link drops once, half-way; the bytes sent again, in parts. */
async function disconnectRun(page: Page, proxy: StorageProxy, origin: string, token: string, paths: string[]): Promise<string> {
  const order = (await createOrder(origin, token, `bench disconnect ${Date.now()}`)) ?? '';
  const partSizes: number[] = [];
  page.on('response', (res) => {
    if (res.url().endsWith('/create_presigned_url')) void res.json().then((b: { partSize?: number }) => b.partSize && partSizes.push(b.partSize), () => undefined);
  });
  const bytes = bytesOf(paths);
  await page.goto(`/lab-orders/${order}/upload-progress`);
  const from = proxy.puts.length;
  // A 25 MB/s uplink per PUT, so the cut lands in the middle of parts, as on a real link.
  proxy.throttle = 25 * MB;
  await page.getByLabel('SELECT PHOTOS TO UPLOAD').setInputFiles(paths);
  const sentSoFar = () => proxy.puts.slice(from).reduce((sum, p) => sum + p.bytes, 0);
  while (sentSoFar() < bytes / 2) await new Promise((r) => setTimeout(r, 50));
  const inFlight = proxy.puts.slice(from).filter((p) => !p.complete).length;
  proxy.cutAll();
  await page.getByText(`${paths.length} of ${paths.length} photos uploaded`).waitFor({ timeout: 1_800_000 });
  proxy.throttle = 0;
  const resent = sentSoFar() - bytes;
  const partSize = partSizes[0] ?? 0;
  return (
    `(b) sent again after the link dropped with ${inFlight} PUTs in flight: ${fmt(resent / MB)} MB = ${partSize ? fmt(resent / partSize, 2) : '?'} parts of ${fmt(partSize / MB)} MB ` +
    `(target <= ${inFlight} parts: one per PUT in flight)`
  );
}

interface Unthrottled {
  page: Page;
  proxy: StorageProxy;
  context: BrowserContext;
  origin: string;
  token: string;
  root: string;
  workerFile: string;
}

/** (a) to (e): the link as fast as the machine goes; answers the printed lines. */
async function unthrottled({ page, proxy, context, origin, token, root, workerFile }: Unthrottled): Promise<string[]> {
  const lines: string[] = [];

  // (e) First: it needs no upload server.
  const camera = await camera24mp(mkdtempSync(join(root, 'camera-')));
  await filesInPage(page, [camera.withPreview, camera.withoutPreview]);
  const [preview, plain] = await thumbnailFigures(page, `/assets/${workerFile}`);
  if (preview && plain) {
    lines.push(
      `(e) first thumbnail of a 24 MP camera JPEG (medians): with its EXIF preview ours ${fmt(preview.ours)} ms (${preview.source}; target <= 50 ms), ` +
        `createImageBitmap resize ${fmt(preview.bitmap)} ms: ratio ${fmt(preview.ours / preview.bitmap, 3)}; ` +
        `without one ours ${fmt(plain.ours)} ms (${plain.source}), createImageBitmap resize ${fmt(plain.bitmap)} ms: ratio ${fmt(plain.ours / plain.bitmap, 3)}`,
    );
  }

  const batch = await cameraBatch(mkdtempSync(join(root, 'photos-')), Math.max(FILES, MEMORY_FILES), MEGABYTES);
  const paths = batch.paths.slice(0, FILES);
  const bytes = bytesOf(paths);
  console.log(`${FILES} photos, ${fmt(bytes / MB)} MB in all`);

  // (a), (c): the queue, untouched.
  const ours = await queueRun(page, proxy, origin, token, paths, 'queue', true);
  const queueMs = ours.doneAt - ours.sendingFrom;
  const oursMs = ours.doneAt - ours.chosenAt;
  lines.push(`(c) longest main-thread task from choosing to done: ${fmt(ours.longest, 0)} ms (target < 50 ms; ${ours.longTasks} long tasks seen)`);

  // Each run starts with the lab idle: the last run's previews made (the background job).
  const waited = [await settle(origin, token, ours.order)];
  if (!SKIP.has('peer')) {
    const order = (await createOrder(origin, token, `bench uppy ${Date.now()}`)) ?? '';
    const cpuBefore = cpuSnapshot();
    const uppy = await runUppy(context, { paths, orderGuid: order, token, limit: PUTS_IN_FLIGHT, partSize: PART_SIZE, multipartAbove: MULTIPART_THRESHOLD });
    console.log(`uppy: ${cpuBetween(cpuBefore, cpuSnapshot(), uppy.ms / 1000)}`);
    if (uppy.confirmed !== FILES) throw new Error(`Uppy confirmed ${uppy.confirmed} of ${FILES}: ${uppy.failures.join('; ')}`);
    lines.push(
      `(p) peer, choosing to every photo in the order: ours ${fmt(oursMs / 1000)} s (${fmt(bytes / MB / (oursMs / 1000))} MB/s), ` +
        `Uppy 6.3.1 S3 multipart ${fmt(uppy.ms / 1000)} s (${fmt(bytes / MB / (uppy.ms / 1000))} MB/s), ${PUTS_IN_FLIGHT} PUTs in flight each: ` +
        `ours / Uppy ${fmt(oursMs / uppy.ms, 3)} (target <= 0.9)`,
    );
    waited.push(await settle(origin, token, order));
  }
  console.log(`waited for the lab's previews between runs: ${waited.map((ms) => fmt(ms / 1000)).join(', ')} s`);

  if (!SKIP.has('baseline')) {
    const baselineMs = (await plainPuts(page, origin, token, paths)).ms;
    lines.push(
      `(a) throughput: queue ${fmt(bytes / MB / (queueMs / 1000))} MB/s (first byte sent to last photo confirmed), ` +
        `plain PUTs ${fmt(bytes / MB / (baselineMs / 1000))} MB/s: ratio ${fmt(baselineMs / queueMs, 3)} (target >= 0.95); ` +
        `end to end from choosing (saving to IndexedDB, checks, checksums, thumbnails included) ${fmt(bytes / MB / (oursMs / 1000))} MB/s: ratio ${fmt(baselineMs / oursMs, 3)}`,
    );
  }

  if (!SKIP.has('disconnect')) lines.push(await disconnectRun(page, proxy, origin, token, paths.slice(0, DISCONNECT_FILES)));

  if (MEMORY_FILES > 0) {
    const many = batch.paths.slice(0, MEMORY_FILES);
    const run = await queueRun(page, proxy, origin, token, many, 'memory', false);
    lines.push(
      `(d) peak JS heap, page and workers, during a ${MEMORY_FILES}-photo upload (${fmt(bytesOf(many) / MB / 1000, 2)} GB): ${fmt(run.peakHeap / 1024 / 1024)} MB (target < 300 MB); ` +
        `${fmt((run.doneAt - run.chosenAt) / 1000)} s, longest task ${fmt(run.longest, 0)} ms; the ${FILES}-photo run's peak ${fmt(ours.peakHeap / 1024 / 1024)} MB`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  if (!existsSync('dist/index.html')) throw new Error('No built client: run `npm run build` first (npm run bench:upload does).');
  const workerFile = readdirSync('dist/assets').find((f) => /^upload-worker-.*\.js$/.test(f));
  if (!workerFile) throw new Error('dist has no upload worker');
  const root = mkdtempSync(join(tmpdir(), 'lab-bench-upload-'));
  const uppyDir = join(root, 'uppy-page');
  if (!SKIP.has('peer') && !SKIP.has('unthrottled')) await buildUppyPage(uppyDir);
  const lab = await startLab(join(root, 'data'));
  const proxy = new StorageProxy({ target: lab.origin });
  proxy.answerHere = uppyRoutes(uppyDir);
  await proxy.start();
  const context = await chromium.launchPersistentContext(join(root, 'profile'), { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, baseURL: proxy.origin });
  const lines: string[] = [];
  const rows: Row[] = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.addInitScript(LONG_TASKS);
    await signIn(page);
    const token = await signInToken(lab.origin);
    if (!SKIP.has('unthrottled')) lines.push(...(await unthrottled({ page, proxy, context, origin: lab.origin, token, root, workerFile })));
    if (LINKS_MBIT.length) {
      rows.push(...(await linkRows({ page, proxy, origin: lab.origin, token, dir: mkdtempSync(join(root, 'link-')) }, LINKS_MBIT)));
      console.log(formatTable(rows));
      writePerformanceDoc(rows, BENCH_COMMAND);
    }
  } finally {
    await context.close();
    await proxy.stop();
    lab.stop();
    rmSync(root, { recursive: true, force: true });
    console.log(lines.sort().join('\n'));
  }
}

await main();
