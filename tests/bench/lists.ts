/**
 * The big lists of issue 14, in Chromium with real input: the orders list of a lab with 10,000
 * orders and the photographers list of 5,000 photographers, both as the lab's admin.
 *
 * Per list, three figures:
 * - first screen: from the end of the list's answer (Resource Timing `responseEnd` of its API
 *   call) to the end of the frame that first shows a row (a MutationObserver sees the row's
 *   commit; a requestAnimationFrame, then a message, runs after that frame is drawn). The page
 *   marks both moments (`performance.mark`), so a trace of the run shows them. Target 200 ms.
 * - each search keystroke: from the key's event time to the end of the frame that shows it (the
 *   same requestAnimationFrame-then-message after the keydown), worst of the word typed. The part
 *   before the page's keydown listener ran (the browser's input path, or a task the key waited
 *   behind) is printed beside it, not judged apart. Chromium
 *   runs with its frame-rate limit off (`--disable-frame-rate-limit`), so the figure is the page's
 *   own work, not the wait for the next 60 Hz vsync. Target 16 ms (one frame).
 * - scrolling: wheel down through the list as a user does (the next pages load on the way), and
 *   the Long Tasks API's longest task meanwhile. Target: none over 50 ms.
 * The longest task while typing (the list's re-render for the search and its answer) is printed
 * too, to the same 50 ms.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { SessionAnswer } from '../../src/contract/session.ts';
import { expectScreen, freshContext } from './browser.ts';
import { ms, verdict, type Row } from './report.ts';
import { sendSignal, waitForSignal } from './page-signal.ts';
import { traceTasks, type TaskFigures } from './task-trace.ts';

// One frame at 60 Hz: a keystroke shown within it never looks late.
const KEY_BUDGET_MS = 16;
// The first-screen budget, after the data has arrived.
const FIRST_SCREEN_MS = 200;
// A task longer than this delays input noticeably (RAIL); the Long Tasks API reports over 50 ms.
const TASK_BUDGET_MS = 50;
// Quiet time after a step before its entries are read: long tasks are reported after they end.
const SETTLE_MS = 500;
// Wheel steps of the scroll and the pause between them (a brisk scroll of about 40 screens).
const WHEEL_STEPS = 120;
const WHEEL_PX = 900;
const WHEEL_PAUSE_MS = 60;
// Pause between keystrokes: a quick typist.
const KEY_PAUSE_MS = 120;

/**
 * Runs in the page before the app (a string: the bench is type-checked without the DOM's types).
 * `window.__rowSelector` is set per list; the first element matching it marks the first screen.
 */
const OBSERVE = (rowSelector: string) => `
  window.__perf = [];
  window.__keys = [];
  const afterPaint = (done) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => done(performance.now());
    ch.port2.postMessage(0);
  });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__perf.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const rows = new MutationObserver(() => {
    if (!document.querySelector(${JSON.stringify(rowSelector)})) return;
    rows.disconnect();
    performance.mark('first-row-committed');
    afterPaint((t) => { window.__firstPaint = t; performance.mark('first-screen-painted'); ${sendSignal('first-screen')}; });
  });
  rows.observe(document, { childList: true, subtree: true });
  addEventListener('keydown', (e) => {
    const at = e.timeStamp;
    // How long the key took to reach the page (the browser's input path, a busy main thread).
    const reached = performance.now() - at;
    afterPaint((t) => window.__keys.push({ key: e.key, ms: t - at, reached }));
  }, true);
`;

// BENCH_LISTS_PROFILE=<dir>: the page's CPU profile of each list's typing and scrolling is written
// there (open it in Chromium's DevTools; build with `vite build --minify false` to read names).
const PROFILE_DIR = process.env.BENCH_LISTS_PROFILE ?? '';

// BENCH_LISTS_TRACE=<dir>: the Chromium performance trace of each list's typing and scrolling is
// kept there (DevTools' Performance panel opens it): style, layout and paint by task.
const TRACE_DIR = process.env.BENCH_LISTS_TRACE ?? '';
const fileName = (name: string) => name.replace(/[^A-Za-z0-9]+/g, '-');

/** The page's CPU profile while BENCH_LISTS_PROFILE is set; the returned stop writes it. */
async function profile(page: Page, name: string): Promise<() => Promise<void>> {
  const file = fileName(name);
  if (!PROFILE_DIR) return async () => {};
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  return async () => {
    const { profile: taken } = await cdp.send('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(join(PROFILE_DIR, `${file}.cpuprofile`), JSON.stringify(taken));
    await cdp.detach();
  };
}

const keptTrace = (name: string) => (TRACE_DIR ? (mkdirSync(TRACE_DIR, { recursive: true }), join(TRACE_DIR, `${fileName(name)}.json`)) : undefined);

const now = (page: Page) => page.evaluate(() => performance.now());
const longTasksSince = (page: Page, from: number) => page.evaluate(`window.__perf.filter((e) => e.start >= ${from})`) as Promise<{ start: number; duration: number }[]>;

export interface ListCase {
  /** The row label in the report: 'orders list (10,000)'. */
  label: string;
  path: string;
  session: SessionAnswer;
  /** The API call whose answer the first screen shows. */
  apiPath: string;
  /** A CSS selector of one row of the list. */
  rowSelector: string;
  /** The search box's accessible name, and a word to type in it. */
  searchLabel: string;
  word: string;
}

interface ListFigures {
  firstScreen: number;
  fromStart: number;
  afterDataAndCode: number;
  worstKey: number;
  keys: number;
  typingLongest: number;
  scrollLongest: number;
  scrollTasks: number;
  rowsSeen: number;
  typingCpu: TaskFigures;
  scrollCpu: TaskFigures;
}

async function measureList(browser: Browser, origin: string, c: ListCase, log: (line: string) => void): Promise<ListFigures> {
  const context = await freshContext(browser, origin, c.session);
  try {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.addInitScript({ content: OBSERVE(c.rowSelector) });
    // Nothing of Playwright's runs in the page until the first screen is painted (page-signal.ts).
    const painted = waitForSignal(page, 'first-screen', 120_000);
    await page.goto(`${origin}${c.path}`);
    await painted;
    expectScreen(page, c.path);
    const firstScreen = (await page.evaluate(`(() => {
      const answers = performance.getEntriesByType('resource').filter((r) => new URL(r.name).pathname === ${JSON.stringify(c.apiPath)});
      if (!answers.length) return -1;
      return window.__firstPaint - Math.min(...answers.map((r) => r.responseEnd));
    })()`)) as number;
    if (firstScreen < 0) throw new Error(`${c.label}: no ${c.apiPath} answer seen by the page`);
    // The list's first page is asked for before the app's code arrives (src/app/early-list-page.ts),
    // so its answer can come before the scripts that draw it: 'after its answer' then counts the
    // app's start too. Also printed, not judged: from navigation start, and from the moment both the
    // answer and the last script loaded before the first row had arrived.
    const [fromStart, afterDataAndCode] = (await page.evaluate(`(() => {
      const before = performance.getEntriesByType('resource').filter((r) => r.responseEnd <= window.__firstPaint);
      const answer = Math.min(...before.filter((r) => new URL(r.name).pathname === ${JSON.stringify(c.apiPath)}).map((r) => r.responseEnd));
      const scripts = Math.max(0, ...before.filter((r) => new URL(r.name).pathname.endsWith('.js')).map((r) => r.responseEnd));
      return [window.__firstPaint, window.__firstPaint - Math.max(answer, scripts)];
    })()`)) as [number, number];
    await page.waitForTimeout(SETTLE_MS);

    // Search: the word typed key by key, then cleared again (the full list comes back).
    const box = page.getByRole('searchbox', { name: c.searchLabel });
    await box.click();
    const stopTyping = await profile(page, `${c.label} typing`);
    const typingTrace = await traceTasks(page, keptTrace(`${c.label} typing`));
    const typingFrom = await now(page);
    await page.evaluate('window.__keys = []');
    for (const key of c.word) {
      await page.keyboard.press(key);
      await page.waitForTimeout(KEY_PAUSE_MS);
    }
    for (let i = 0; i < c.word.length; i++) {
      await page.keyboard.press('Backspace');
      await page.waitForTimeout(KEY_PAUSE_MS);
    }
    await page.waitForTimeout(SETTLE_MS * 2);
    const keys = (await page.evaluate('window.__keys')) as { key: string; ms: number; reached: number }[];
    await stopTyping();
    const typingCpu = await typingTrace();
    const typingTasks = await longTasksSince(page, typingFrom);
    await page.locator(c.rowSelector).first().waitFor();

    // Scroll: the window's wheel, down through the list; pages load on the way.
    const stopScroll = await profile(page, `${c.label} scroll`);
    const scrollTrace = await traceTasks(page, keptTrace(`${c.label} scroll`));
    const scrollFrom = await now(page);
    await page.mouse.move(640, 600);
    let rowsSeen = 0;
    for (let i = 0; i < WHEEL_STEPS; i++) {
      await page.mouse.wheel(0, WHEEL_PX);
      await page.waitForTimeout(WHEEL_PAUSE_MS);
      if (i % 20 === 19) rowsSeen = Math.max(rowsSeen, await page.locator(c.rowSelector).count());
    }
    await page.waitForTimeout(SETTLE_MS);
    await stopScroll();
    const scrollCpu = await scrollTrace();
    const scrollTasks = await longTasksSince(page, scrollFrom);
    const figures: ListFigures = {
      firstScreen,
      fromStart,
      afterDataAndCode,
      worstKey: Math.max(0, ...keys.map((k) => k.ms)),
      keys: keys.length,
      typingLongest: Math.max(0, ...typingTasks.map((t) => t.duration)),
      scrollLongest: Math.max(0, ...scrollTasks.map((t) => t.duration)),
      scrollTasks: scrollTasks.length,
      rowsSeen,
      typingCpu,
      scrollCpu,
    };
    const scrolled = (await page.evaluate('Math.round(scrollY)')) as number;
    log(
      `lists: ${c.label}: first screen ${ms(firstScreen)} after its answer (${ms(afterDataAndCode)} after its answer and scripts, ${ms(fromStart)} from navigation start); ${keys.length} keys (${keys.map((k) => Math.round(k.ms)).join(' ')} ms; of which before the page's listener had the key: ${keys.map((k) => Math.round(k.reached)).join(' ')} ms), ${typingTasks.length} long tasks while typing (longest ${ms(figures.typingLongest)}, most CPU in a task ${ms(typingCpu.mostCpu)}); scrolled ${scrolled} px, ${scrollTasks.length} long tasks (longest ${ms(figures.scrollLongest)}; in the trace ${ms(scrollCpu.longestWall)} of which ${ms(scrollCpu.cpuOfLongest)} CPU; most CPU in a task ${ms(scrollCpu.mostCpu)}, ${scrollCpu.cpuLong} tasks over 50 ms of CPU), ${rowsSeen} rows in the page at most`,
    );
    return figures;
  } finally {
    await context.close();
  }
}

export async function measureLists(browser: Browser, origin: string, cases: ListCase[], log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  for (const c of cases) {
    const f = await measureList(browser, origin, c, log);
    const area = c.label;
    rows.push(
      { area, figure: 'first screen painted after the data arrives', value: ms(f.firstScreen), target: `< ${FIRST_SCREEN_MS} ms`, result: verdict(f.firstScreen < FIRST_SCREEN_MS) },
      { area, figure: `search keystroke painted (worst of ${f.keys})`, value: ms(f.worstKey), target: `< ${KEY_BUDGET_MS} ms`, result: verdict(f.keys > 0 && f.worstKey < KEY_BUDGET_MS) },
      { area, figure: 'typing a search: longest task', value: ms(f.typingLongest), target: `<= ${TASK_BUDGET_MS} ms`, result: verdict(f.typingLongest <= TASK_BUDGET_MS) },
      { area, figure: 'typing a search: most CPU in one task (trace)', value: ms(f.typingCpu.mostCpu), target: `<= ${TASK_BUDGET_MS} ms`, result: verdict(f.typingCpu.mostCpu <= TASK_BUDGET_MS) },
      { area, figure: `scrolling (${WHEEL_STEPS} wheel steps): longest task`, value: ms(f.scrollLongest), target: `<= ${TASK_BUDGET_MS} ms`, result: verdict(f.scrollLongest <= TASK_BUDGET_MS) },
      { area, figure: 'scrolling: most CPU in one task (trace)', value: ms(f.scrollCpu.mostCpu), target: `<= ${TASK_BUDGET_MS} ms`, result: verdict(f.scrollCpu.mostCpu <= TASK_BUDGET_MS) },
    );
  }
  return rows;
}
