/**
 * The page's main-thread tasks from a Chromium trace: for each task its wall time (what the Long
 * Tasks API reports) and its thread CPU time (`tdur`). On two shared, loaded cores a long task's
 * wall time can be mostly the page's thread waiting for a core (docs/performance-notes.md §1). The
 * CPU time is the part the page's code controls, so the bench prints both.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

// The Long Tasks API's threshold: tasks over this are long.
const LONG_TASK_MS = 50;

export interface TaskFigures {
  /** Tasks over 50 ms of wall time, and the longest of them with its CPU time. */
  long: number;
  longestWall: number;
  cpuOfLongest: number;
  /** The most CPU any one task used, and how many used over 50 ms of it. */
  mostCpu: number;
  cpuLong: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { processId?: number; frames?: { processId?: number }[] } };
}

/**
 * The renderer processes that held the traced page: the one it was in when tracing started and any
 * it navigated into. The trace is browser-wide, and Chromium's new headless mode also runs renderers
 * of its own (the omnibox popup's WebUI, prewarmed with each window: 0.46 s of CPU during one fresh
 * /lab-orders visit here), whose tasks are not the page's.
 */
function pageProcesses(events: TraceEvent[]): Set<number> {
  const pids = new Set<number>();
  for (const e of events) {
    if (e.name === 'TracingStartedInBrowser') for (const f of e.args?.data?.frames ?? []) if (f.processId) pids.add(f.processId);
    if (e.name === 'FrameCommittedInBrowser' && e.args?.data?.processId) pids.add(e.args.data.processId);
  }
  return pids;
}

/** Starts tracing the page's tasks; the returned stop reads the trace (kept at `keep` when given). */
export async function traceTasks(page: Page, keep?: string): Promise<() => Promise<TaskFigures>> {
  const browser = page.context().browser();
  if (!browser) throw new Error('tracing needs the page of a launched browser');
  const dir = keep ? null : mkdtempSync(join(tmpdir(), 'bench-trace-'));
  const path = keep ?? join(dir ?? '', 'trace.json');
  // RunTask events (with thread time) are in this category; the rest of devtools.timeline adds
  // style, layout and paint for reading the kept trace in DevTools.
  await browser.startTracing(page, { path, categories: ['disabled-by-default-devtools.timeline', ...(keep ? ['devtools.timeline', 'v8.execute'] : [])] });
  return async () => {
    await browser.stopTracing();
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
      return taskFigures(Array.isArray(parsed) ? parsed : parsed.traceEvents);
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  };
}

function taskFigures(events: TraceEvent[]): TaskFigures {
  const page = pageProcesses(events);
  const main = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && (page.size === 0 || page.has(e.pid))).map((e) => `${e.pid}:${e.tid}`),
  );
  // One thread's CPU time cannot exceed its wall time, yet Chromium's trace gives a few tasks a
  // `tdur` of 2-4x their `dur` (6 of 38,448 in one scroll of the orders list: 17.5 ms of CPU in
  // 4.4 ms), which alone made a 'most CPU' figure: capped at the wall time.
  const tasks = events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`))
    .map((e) => ({ wall: (e.dur ?? 0) / 1000, cpu: Math.min(e.tdur ?? 0, e.dur ?? 0) / 1000 }));
  const long = tasks.filter((t) => t.wall > LONG_TASK_MS);
  const longest = long.reduce((a, b) => (b.wall > a.wall ? b : a), { wall: 0, cpu: 0 });
  return {
    long: long.length,
    longestWall: longest.wall,
    cpuOfLongest: longest.cpu,
    mostCpu: Math.max(0, ...tasks.map((t) => t.cpu)),
    cpuLong: tasks.filter((t) => t.cpu > LONG_TASK_MS).length,
  };
}
