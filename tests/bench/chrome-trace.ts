/**
 * A Chromium performance trace of a page (the DevTools Performance panel's recording) through the
 * DevTools protocol's Tracing domain, written to a file, and a summary of the page's main-thread
 * tasks over 50 ms: what each spent its time in (scripts, style, layout, paint, IndexedDB, GC).
 * For the upload benchmark's long-task hunt (BENCH_UPLOAD_CHROME_TRACE).
 */
import { appendFileSync, createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { CDPSession, Page } from 'playwright-core';

/**
 * The main thread's tasks and what runs in them (DevTools' Performance panel's core categories),
 * without the sampling profiler and the verbose blink/v8 ones: a 200-photo upload's trace with
 * those passed 512 MB.
 */
const CATEGORIES = ['devtools.timeline', 'toplevel', 'v8.execute', 'IndexedDB'];
/** A long task by the Long Tasks API's measure. */
const LONG_MS = 50;

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; type?: string } };
}

export class ChromeTrace {
  private constructor(private readonly cdp: CDPSession) {}

  static async start(page: Page): Promise<ChromeTrace> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: CATEGORIES } });
    return new ChromeTrace(cdp);
  }

  /** Ends the recording, writes it to `file` (a JSON trace DevTools opens) and prints its long tasks. */
  async stop(file: string): Promise<void> {
    const complete = new Promise<string>((resolve) => this.cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream ?? '')));
    await this.cdp.send('Tracing.end');
    const stream = await complete;
    writeFileSync(file, '');
    for (;;) {
      const chunk = await this.cdp.send('IO.read', { handle: stream, size: 1 << 20 });
      appendFileSync(file, chunk.base64Encoded ? Buffer.from(chunk.data, 'base64') : chunk.data);
      if (chunk.eof) break;
    }
    await this.cdp.send('IO.close', { handle: stream });
    await this.cdp.detach();
    await summarise(file);
  }
}

/** Prints the renderer main thread's tasks over 50 ms, each with the events inside it by time. */
export async function summarise(file: string): Promise<void> {
  // Chromium writes one event a line; read line by line (the file may pass V8's string limit).
  const mains = new Set<string>();
  const onMain: TraceEvent[] = [];
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    const text = line.replace(/^\{"traceEvents":\[/, '').replace(/^\[/, '').replace(/,$/, '').replace(/\]\}?$/, '');
    if (!text.startsWith('{')) continue;
    try {
      const e = JSON.parse(text) as TraceEvent;
      // Thread names come first: keep only the renderers' main threads' events.
      if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') mains.add(`${e.pid}:${e.tid}`);
      else if (e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`)) onMain.push(e);
    } catch {
      // Not one whole event on this line (metadata at the end): skipped.
    }
  }
  // A task is 'RunTask' with the timeline's detail, 'ThreadControllerImpl::RunTask' without it.
  const taskName = onMain.some((e) => e.name === 'RunTask') ? 'RunTask' : 'ThreadControllerImpl::RunTask';
  const tasks = onMain.filter((e) => e.name === taskName && (e.dur ?? 0) > LONG_MS * 1000);
  let busy = 0;
  for (const e of onMain) if (e.name === taskName) busy += e.dur ?? 0;
  console.log(`chrome trace: ${tasks.length} main-thread tasks over ${LONG_MS} ms; main thread busy ${(busy / 1e6).toFixed(1)} s in tasks`);
  // Where the busy time went, by event (nested events count in their parents too).
  const total = new Map<string, number>();
  for (const e of onMain) {
    const what = e.name === 'FunctionCall' ? `FunctionCall ${e.args?.data?.functionName ?? ''} ${(e.args?.data?.url ?? '').split('/').pop()}` : e.name;
    if (what !== 'RunTask' && what !== 'ThreadControllerImpl::RunTask') total.set(what, (total.get(what) ?? 0) + (e.dur ?? 0));
  }
  const busiest = [...total].sort((a, b) => b[1] - a[1]).slice(0, 16);
  console.log(`  busiest: ${busiest.map(([n, d]) => `${n.trim()} ${(d / 1e6).toFixed(2)} s`).join(' | ')}`);
  for (const task of tasks.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 8)) {
    const end = task.ts + (task.dur ?? 0);
    const inside = onMain.filter((e) => e !== task && e.tid === task.tid && e.pid === task.pid && e.ts >= task.ts && e.ts < end);
    const byName = new Map<string, number>();
    for (const e of inside) {
      const what = e.name === 'FunctionCall' || e.name === 'EvaluateScript' ? `${e.name} ${e.args?.data?.functionName ?? ''} ${(e.args?.data?.url ?? '').split('/').pop()}` : e.name;
      byName.set(what, (byName.get(what) ?? 0) + (e.dur ?? 0));
    }
    const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(`  task ${((task.dur ?? 0) / 1000).toFixed(0)} ms: ${top.map(([n, d]) => `${n.trim()} ${(d / 1000).toFixed(0)}`).join(' | ')}`);
  }
}
