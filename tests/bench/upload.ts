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
 * Not part of npm test. BENCH_UPLOAD_FILES and BENCH_UPLOAD_MB change the batch (default 200
 * photos of about 20 MB); BENCH_MEMORY_FILES the (d) batch (default 500, 0 skips it);
 * BENCH_UPLOAD_SKIP=peer,baseline,disconnect skips those runs.
 * BENCH_UPLOAD_PROFILE=<file> writes the page's CPU profile of the upload (a);
 * BENCH_UPLOAD_WORKER_PROFILE=<prefix> the upload worker's (<prefix>-<n>.cpuprofile);
 * BENCH_UPLOAD_CHROME_TRACE=<file> writes a Chromium performance trace of it (open it in DevTools'
 * Performance panel; build with --minify false for names).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { MULTIPART_THRESHOLD } from '../../src/domain/multipart-plan.ts';
import { PART_SIZE } from '../../server/services/photo-upload-service.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/browser.ts';
import { StorageProxy } from '../e2e/storage-proxy.ts';
import { HeapSampler, callApi, camera24mp, cameraBatch, createOrder, settle, sha256, signInToken, startLab, DEMO_ADMIN } from './upload-bench-kit.ts';
import { LONG_TASKS, filesInPage, printTrace, profileWorkers, thumbnailFigures, traceApi } from './upload-bench-page.ts';
import { buildUppyPage, runUppy, uppyRoutes } from './upload-peer.ts';
import { ChromeTrace } from './chrome-trace.ts';
import { cpuBetween, cpuSnapshot } from './process-cpu.ts';

const FILES = Number(process.env.BENCH_UPLOAD_FILES ?? 200);
const MEGABYTES = Number(process.env.BENCH_UPLOAD_MB ?? 20);
/** Issue 14's memory figure is taken during a 500-photo upload. */
const MEMORY_FILES = Number(process.env.BENCH_MEMORY_FILES ?? 500);
const SKIP = new Set((process.env.BENCH_UPLOAD_SKIP ?? '').split(',').filter(Boolean));
/** The queue's MAX_PARTS_IN_FLIGHT (src/offline/upload-slots.ts): the baseline and Uppy get the same. */
const PUTS_IN_FLIGHT = 4;
/** The disconnect run: enough files that several are in flight when the link drops. */
const DISCONNECT_FILES = Math.min(20, FILES);
const MB = 1e6;

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const bytesOf = (paths: string[]) => paths.reduce((sum, p) => sum + statSync(p).size, 0);

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO_ADMIN.email);
  await page.getByLabel('Password').fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

interface QueueRun {
  order: string;
  chosenAt: number;
  /** The first PUT's arrival at the proxy. */
  sendingFrom: number;
  doneAt: number;
  peakHeap: number;
  longest: number;
  longTasks: number;
}

/** Our queue sends `paths` into a new order from its upload screen, as a photographer does. */
async function queueRun(page: Page, proxy: StorageProxy, origin: string, token: string, paths: string[], label: string, observe: boolean): Promise<QueueRun> {
  const order = (await createOrder(origin, token, `bench ${label} ${Date.now()}`)) ?? '';
  await page.goto(`/lab-orders/${order}/upload-progress`);
  const heap = await HeapSampler.of(page);
  heap.start();
  const firstPut = proxy.puts.length;
  const trace = observe && process.env.BENCH_UPLOAD_TRACE ? traceApi(page) : null;
  const profiler = observe && process.env.BENCH_UPLOAD_PROFILE ? await page.context().newCDPSession(page) : null;
  if (profiler) {
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.start');
  }
  const workerProfiler = observe && process.env.BENCH_UPLOAD_WORKER_PROFILE ? await profileWorkers(page, process.env.BENCH_UPLOAD_WORKER_PROFILE) : null;
  const chromeTrace = observe && process.env.BENCH_UPLOAD_CHROME_TRACE ? await ChromeTrace.start(page) : null;
  const cpuBefore = cpuSnapshot();
  const chosenAt = Date.now();
  await page.getByLabel('SELECT PHOTOS TO UPLOAD').setInputFiles(paths);
  await page.getByText(`${paths.length} of ${paths.length} photos uploaded`).waitFor({ timeout: 3_600_000 });
  const doneAt = Date.now();
  const sendingFrom = Math.min(...proxy.puts.slice(firstPut).map((p) => p.startedAt));
  console.log(`${label}: first PUT ${((sendingFrom - chosenAt) / 1000).toFixed(2)} s after choosing; ${cpuBetween(cpuBefore, cpuSnapshot(), (doneAt - chosenAt) / 1000)}`);
  const peakHeap = heap.stop();
  if (workerProfiler) console.log(`worker profiles: ${(await workerProfiler.stop()).join(', ')}`);
  if (chromeTrace) await chromeTrace.stop(process.env.BENCH_UPLOAD_CHROME_TRACE ?? '');
  if (profiler) {
    writeFileSync(process.env.BENCH_UPLOAD_PROFILE ?? '', JSON.stringify((await profiler.send('Profiler.stop')).profile));
    await profiler.detach();
  }
  if (trace) {
    printTrace(trace, chosenAt, proxy.puts.slice(firstPut));
    const frames = ((await page.evaluate('window.__longFrames')) as { at: number; ms: number }[]).filter((f) => f.at >= chosenAt && f.at <= doneAt).sort((a, b) => b.ms - a.ms);
    for (const f of frames.slice(0, 3)) console.log(`trace long frame at ${f.at - chosenAt} ms: ${JSON.stringify(f)}`);
  }
  const seen = ((await page.evaluate('window.__longTasks')) as [number, number][]).filter(([at]) => at >= chosenAt && at <= doneAt);
  // Off the upload screen, which keeps reading the lab's photo list for a while: the next run
  // must not share the server with it.
  await page.goto('/lab-orders');
  return { order, chosenAt, sendingFrom, doneAt, peakHeap, longest: Math.max(0, ...seen.map(([, d]) => d)), longTasks: seen.length };
}

/** Plain PUTs of the same bytes from the page, as many at once as the queue sends; ms. */
async function plainPuts(page: Page, origin: string, token: string, paths: string[]): Promise<number> {
  const order = (await createOrder(origin, token, `bench baseline ${Date.now()}`)) ?? '';
  const targets: { url: string; headers: Record<string, string> }[] = [];
  for (const path of paths) {
    const bytes = new Uint8Array(readFileSync(path));
    const answer = await callApi<{ signedUrl: string; headers: Record<string, string> }>(origin, token, 'POST', `/lab_orders/${order}/create_presigned_url`, {
      lab_order_guid: order,
      photo_file_name: path.split('/').pop(),
      content_type: 'image/jpeg',
      size: bytes.length,
      checksum: sha256(bytes),
    });
    targets.push({ url: answer.body.signedUrl, headers: answer.body.headers });
  }
  await filesInPage(page, paths);
  const cpuBefore = cpuSnapshot();
  const ms = (await page.evaluate(`(async () => {
    const files = [...document.getElementById('bench-files').files];
    const targets = ${JSON.stringify(targets)};
    let next = 0;
    const t = performance.now();
    const lane = async () => { for (let i = next++; i < files.length; i = next++) { const r = await fetch(targets[i].url, { method: 'PUT', headers: targets[i].headers, body: files[i] }); if (!r.ok) throw new Error('PUT ' + r.status); } };
    await Promise.all(Array.from({ length: ${PUTS_IN_FLIGHT} }, lane));
    return performance.now() - t;
  })()`)) as number;
  console.log(`plain PUTs: ${cpuBetween(cpuBefore, cpuSnapshot(), ms / 1000)}`);
  return ms;
}

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

async function main(): Promise<void> {
  if (!existsSync('dist/index.html')) throw new Error('No built client: run `npm run build` first (npm run bench:upload does).');
  const workerFile = readdirSync('dist/assets').find((f) => /^upload-worker-.*\.js$/.test(f));
  if (!workerFile) throw new Error('dist has no upload worker');
  const root = mkdtempSync(join(tmpdir(), 'lab-bench-upload-'));
  const uppyDir = join(root, 'uppy-page');
  if (!SKIP.has('peer')) await buildUppyPage(uppyDir);
  const lab = await startLab(join(root, 'data'));
  const proxy = new StorageProxy({ target: lab.origin });
  proxy.answerHere = uppyRoutes(uppyDir);
  await proxy.start();
  const context = await chromium.launchPersistentContext(join(root, 'profile'), { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, baseURL: proxy.origin });
  const lines: string[] = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.addInitScript(LONG_TASKS);
    await signIn(page);

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

    const token = await signInToken(lab.origin);
    const batch = await cameraBatch(mkdtempSync(join(root, 'photos-')), Math.max(FILES, MEMORY_FILES), MEGABYTES);
    const paths = batch.paths.slice(0, FILES);
    const bytes = bytesOf(paths);
    console.log(`${FILES} photos, ${fmt(bytes / MB)} MB in all`);

    // (a), (c): the queue, untouched.
    const ours = await queueRun(page, proxy, lab.origin, token, paths, 'queue', true);
    const queueMs = ours.doneAt - ours.sendingFrom;
    const oursMs = ours.doneAt - ours.chosenAt;
    lines.push(`(c) longest main-thread task from choosing to done: ${fmt(ours.longest, 0)} ms (target < 50 ms; ${ours.longTasks} long tasks seen)`);

    // Each run starts with the lab idle: the last run's previews made (the background job).
    const waited = [await settle(lab.origin, token, ours.order)];
    if (!SKIP.has('peer')) {
      const order = (await createOrder(lab.origin, token, `bench uppy ${Date.now()}`)) ?? '';
      const cpuBefore = cpuSnapshot();
      const uppy = await runUppy(context, { paths, orderGuid: order, token, limit: PUTS_IN_FLIGHT, partSize: PART_SIZE, multipartAbove: MULTIPART_THRESHOLD });
      console.log(`uppy: ${cpuBetween(cpuBefore, cpuSnapshot(), uppy.ms / 1000)}`);
      if (uppy.confirmed !== FILES) throw new Error(`Uppy confirmed ${uppy.confirmed} of ${FILES}: ${uppy.failures.join('; ')}`);
      lines.push(
        `(p) peer, choosing to every photo in the order: ours ${fmt(oursMs / 1000)} s (${fmt(bytes / MB / (oursMs / 1000))} MB/s), ` +
          `Uppy 6.3.1 S3 multipart ${fmt(uppy.ms / 1000)} s (${fmt(bytes / MB / (uppy.ms / 1000))} MB/s), ${PUTS_IN_FLIGHT} PUTs in flight each: ` +
          `ours / Uppy ${fmt(oursMs / uppy.ms, 3)} (target <= 0.9)`,
      );
      waited.push(await settle(lab.origin, token, order));
    }
    console.log(`waited for the lab's previews between runs: ${waited.map((ms) => fmt(ms / 1000)).join(', ')} s`);

    if (!SKIP.has('baseline')) {
      const baselineMs = await plainPuts(page, lab.origin, token, paths);
      lines.push(
        `(a) throughput: queue ${fmt(bytes / MB / (queueMs / 1000))} MB/s (first byte sent to last photo confirmed), ` +
          `plain PUTs ${fmt(bytes / MB / (baselineMs / 1000))} MB/s: ratio ${fmt(baselineMs / queueMs, 3)} (target >= 0.95); ` +
          `end to end from choosing (saving to IndexedDB, checks, checksums, thumbnails included) ${fmt(bytes / MB / (oursMs / 1000))} MB/s: ratio ${fmt(baselineMs / oursMs, 3)}`,
      );
    }

    if (!SKIP.has('disconnect')) lines.push(await disconnectRun(page, proxy, lab.origin, token, paths.slice(0, DISCONNECT_FILES)));

    if (MEMORY_FILES > 0) {
      const many = batch.paths.slice(0, MEMORY_FILES);
      const run = await queueRun(page, proxy, lab.origin, token, many, 'memory', false);
      lines.push(
        `(d) peak JS heap, page and workers, during a ${MEMORY_FILES}-photo upload (${fmt(bytesOf(many) / MB / 1000, 2)} GB): ${fmt(run.peakHeap / 1024 / 1024)} MB (target < 300 MB); ` +
          `${fmt((run.doneAt - run.chosenAt) / 1000)} s, longest task ${fmt(run.longest, 0)} ms; the ${FILES}-photo run's peak ${fmt(ours.peakHeap / 1024 / 1024)} MB`,
      );
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
