/**
 * The two uploads every part of the upload benchmark compares (tests/bench/upload.ts and its
 * throttled-link mode, upload-link.ts): our queue sending photos from its upload screen, as a
 * photographer does, and plain concurrent PUTs of the same bytes from the same page. Each answers
 * its times and the CPU the machine spent on it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { StorageProxy } from '../e2e/storage-proxy.ts';
import { HeapSampler, callApi, createOrder, sha256, DEMO_ADMIN } from './upload-bench-kit.ts';
import { filesInPage, printTrace, profileWorkers, traceApi } from './upload-bench-page.ts';
import { ChromeTrace } from './chrome-trace.ts';
import { cpuBetween, cpuSeconds, cpuSnapshot } from './process-cpu.ts';

/** The queue's MAX_PARTS_IN_FLIGHT (src/upload/shared/upload-slots.ts): the baseline and Uppy get the same. */
export const PUTS_IN_FLIGHT = 4;

/** CPU seconds of a run: every process of the bench, and Chromium's alone (page, workers, network, IndexedDB). */
export interface RunCpu {
  all: number;
  browser: number;
}

function cpuOf(before: ReturnType<typeof cpuSnapshot>): RunCpu {
  const after = cpuSnapshot();
  return { all: cpuSeconds(before, after), browser: cpuSeconds(before, after, (label) => label.startsWith('chromium')) };
}

export async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO_ADMIN.email);
  await page.getByLabel('Password').fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

export interface QueueRun {
  order: string;
  chosenAt: number;
  /** The first PUT's arrival at the proxy. */
  sendingFrom: number;
  doneAt: number;
  peakHeap: number;
  longest: number;
  longTasks: number;
  cpu: RunCpu;
}

/** Our queue sends `paths` into a new order from its upload screen, as a photographer does. */
export async function queueRun(page: Page, proxy: StorageProxy, origin: string, token: string, paths: string[], label: string, observe: boolean): Promise<QueueRun> {
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
  const cpu = cpuOf(cpuBefore);
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
  return { order, chosenAt, sendingFrom, doneAt, peakHeap, longest: Math.max(0, ...seen.map(([, d]) => d)), longTasks: seen.length, cpu };
}

/**
 * Plain PUTs of the same bytes from the page, as many at once as the queue sends, to addresses
 * asked of `origin` beforehand (not timed); ms from the first PUT to the last answer.
 */
export async function plainPuts(page: Page, origin: string, token: string, paths: string[]): Promise<{ ms: number; cpu: RunCpu }> {
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
  const cpu = cpuOf(cpuBefore);
  console.log(`plain PUTs: ${cpuBetween(cpuBefore, cpuSnapshot(), ms / 1000)}`);
  return { ms, cpu };
}
