/**
 * Browser-side pieces of the upload benchmark (tests/bench/upload.ts), sent to the page as
 * strings (this file is checked without the DOM's types): files on disk as File objects, the
 * worker's thumbnail timed against a plain createImageBitmap resize, the Long Tasks observer, and
 * BENCH_UPLOAD_TRACE's record of the lab calls.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { median } from './upload-bench-kit.ts';

/** Thumbnail runs per file; the median is printed. */
const THUMBNAIL_RUNS = 7;
/** The thumbnail's long side, as the upload screen asks for it (THUMBNAIL_SIDE). */
const SIDE = 400;

/** Files on disk as File objects in the page, through a file input the benchmark adds. */
export async function filesInPage(page: Page, paths: string[]): Promise<void> {
  await page.evaluate(`(() => { document.getElementById('bench-files')?.remove(); const i = document.createElement('input'); i.type = 'file'; i.multiple = true; i.id = 'bench-files'; document.body.append(i); })()`);
  await page.locator('#bench-files').setInputFiles(paths);
}

export interface ThumbnailFigures {
  /** Medians, ms: our worker's thumbnail call, and createImageBitmap resizing the same file. */
  ours: number;
  bitmap: number;
  /** 'exif' or 'decoded': what the worker made it from. */
  source: string;
}

/**
 * Our worker's first thumbnail of each file (the thumbnail call, spoken in Comlink's wire format
 * from the page, the round trip included), against `createImageBitmap(file, {resizeWidth})` of
 * the same file in the page, alternating, THUMBNAIL_RUNS times each after one warm-up of each.
 * The files are the two the page holds in #bench-files.
 */
export async function thumbnailFigures(page: Page, workerUrl: string): Promise<ThumbnailFigures[]> {
  const raw = (await page.evaluate(`(async () => {
    const worker = new Worker(${JSON.stringify(workerUrl)}, { type: 'module' });
    let next = 0;
    const call = (method, args) => new Promise((resolve, reject) => {
      const id = 'bench-' + (++next);
      const on = (e) => {
        if (e.data?.id !== id) return;
        worker.removeEventListener('message', on);
        e.data.type === 'RAW' ? resolve(e.data.value) : reject(new Error(JSON.stringify(e.data.value)));
      };
      worker.addEventListener('message', on);
      worker.postMessage({ id, type: 'APPLY', path: [method], argumentList: args.map((value) => ({ type: 'RAW', value })) });
    });
    const bitmap = async (file) => {
      const b = await createImageBitmap(file, { resizeWidth: ${SIDE}, resizeQuality: 'medium' });
      b.close();
    };
    const out = [];
    for (const file of document.getElementById('bench-files').files) {
      // One warm-up of each: the worker's start and the decoder's first use are not a thumbnail's cost.
      const first = await call('thumbnail', [file, ${SIDE}, true]);
      await bitmap(file);
      const ours = [];
      const plain = [];
      for (let i = 0; i < ${THUMBNAIL_RUNS}; i++) {
        let t = performance.now();
        await call('thumbnail', [file, ${SIDE}, true]);
        ours.push(performance.now() - t);
        t = performance.now();
        await bitmap(file);
        plain.push(performance.now() - t);
      }
      out.push({ ours, plain, source: first?.source ?? 'none' });
    }
    worker.terminate();
    return out;
  })()`)) as { ours: number[]; plain: number[]; source: string }[];
  return raw.map((r) => ({ ours: median(r.ours), bitmap: median(r.plain), source: r.source }));
}

export const LONG_TASKS = `(() => {
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push([performance.timeOrigin + e.startTime, e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
  // Long animation frames name the scripts that made them (BENCH_UPLOAD_TRACE prints the worst).
  window.__longFrames = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longFrames.push({ at: performance.timeOrigin + e.startTime, ms: e.duration, blocking: e.blockingDuration, render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0, scripts: e.scripts.map((s) => ({ ms: Math.round(s.duration), invoker: s.invoker, fn: s.sourceFunctionName, url: s.sourceURL.split('/').pop() + ':' + s.sourceCharPosition, forced: Math.round(s.forcedStyleAndLayoutDuration) })) }); })
      .observe({ type: 'long-animation-frame', buffered: true });
  } catch {}
})()`;

/** BENCH_UPLOAD_TRACE=1: when each API call of the upload started and how long it took. */
export function traceApi(page: Page): { name: string; at: number; ms: number }[] {
  const calls: { name: string; at: number; ms: number }[] = [];
  const started = new Map<object, number>();
  page.on('request', (req) => {
    if (req.url().includes('/api/v2/lab_orders/')) started.set(req, Date.now());
  });
  page.on('requestfinished', (req) => {
    const at = started.get(req);
    if (at !== undefined) calls.push({ name: req.url().split('/').pop()?.split('?')[0] ?? '', at, ms: Date.now() - at });
  });
  return calls;
}

export function printTrace(calls: { name: string; at: number; ms: number }[], from: number, puts: { startedAt: number; endedAt: number; bytes: number }[]): void {
  const byName = new Map<string, { at: number; ms: number }[]>();
  for (const c of calls) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  for (const [name, list] of byName) {
    const ms = list.map((c) => c.ms);
    const ats = list.map((c) => c.at - from);
    console.log(`trace ${name}: ${list.length} calls, median ${median(ms)} ms, max ${Math.max(...ms)} ms, first at ${Math.min(...ats)} ms, last at ${Math.max(...ats)} ms; ${byFifth(list.map((c) => ({ at: c.at, ms: c.ms })))}`);
  }
  const putMs = puts.map((p) => p.endedAt - p.startedAt);
  console.log(
    `trace PUTs: ${puts.length}, median ${median(putMs)} ms, max ${Math.max(...putMs)} ms, first at ${Math.min(...puts.map((p) => p.startedAt)) - from} ms, last end ${Math.max(...puts.map((p) => p.endedAt)) - from} ms; ${byFifth(puts.map((p) => ({ at: p.startedAt, ms: p.endedAt - p.startedAt })))}`,
  );
}

/** Medians by fifth of the run (by start time): what grows as the batch goes on. */
function byFifth(calls: { at: number; ms: number }[]): string {
  if (!calls.length) return '';
  const from = Math.min(...calls.map((c) => c.at));
  const span = Math.max(...calls.map((c) => c.at)) - from + 1;
  const fifths = Array.from({ length: 5 }, (_, i) => calls.filter((c) => Math.floor(((c.at - from) / span) * 5) === i).map((c) => c.ms));
  return `medians by fifth ${fifths.map((f) => (f.length ? median(f) : '-')).join(' / ')} ms`;
}

/**
 * CPU profiles of the page's dedicated workers (the upload worker), for BENCH_UPLOAD_WORKER_PROFILE:
 * a DevTools session of its own attaches to each worker as it starts (Target.setAutoAttach, not
 * flattened, so messages go through Target.sendMessageToTarget) and starts V8's profiler in it;
 * stop() writes each worker's profile to `<prefix>-<n>.cpuprofile`. The first moments of a worker
 * (before the attach lands) are not in it.
 */
export async function profileWorkers(page: Page, prefix: string): Promise<{ stop(): Promise<string[]> }> {
  const cdp = await page.context().newCDPSession(page);
  const sessions: string[] = [];
  const pending = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  const toWorker = (sessionId: string, method: string) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) }).catch(() => resolve(null));
    });
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const msg = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result);
  });
  cdp.on('Target.attachedToTarget', (e) => {
    if (e.targetInfo.type !== 'worker') return;
    sessions.push(e.sessionId);
    void toWorker(e.sessionId, 'Profiler.enable').then(() => toWorker(e.sessionId, 'Profiler.start'));
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return {
    async stop() {
      const files: string[] = [];
      for (const [i, sessionId] of sessions.entries()) {
        const result = (await toWorker(sessionId, 'Profiler.stop')) as { profile?: unknown } | null;
        if (!result?.profile) continue;
        const file = `${prefix}-${i}.cpuprofile`;
        writeFileSync(file, JSON.stringify(result.profile));
        files.push(file);
      }
      await cdp.detach();
      return files;
    },
  };
}
