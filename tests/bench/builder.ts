/**
 * The order builder with 1,000 photos (issue 11): the real builder in Chromium, signed in as the
 * seeded photographer, each step done with real input (clicks, keys, wheel, drag). The page's own
 * PerformanceObserver records long tasks (over 50 ms) and Event Timing entries; per step the bench
 * reports the longest task and the worst input delay (processingStart - startTime), and how many
 * strip tiles are mounted at most. Target: no task over 50 ms during any step (the RAIL budget for
 * input), and the strip's mounted tiles bounded by a screenful, not by the order's size.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { SessionAnswer } from '../../src/contract/session.ts';
import { expectScreen, freshContext } from './browser.ts';
import { ms, verdict, type Row } from './report.ts';
import { signalWhen, waitForSignal } from './page-signal.ts';
import type { BuilderSeed } from './seed-builder-order.ts';
import { traceTasks } from './task-trace.ts';

// A task longer than this delays input noticeably (RAIL); the Long Tasks API reports over 50 ms.
const TASK_BUDGET_MS = 50;
// A screenful of 120 px tiles at 1,280 px plus the window's overscan, with room for a wide screen.
const TILE_BOUND = 40;
// Quiet time after a step before its entries are read: long tasks are reported after they end.
const SETTLE_MS = 400;
// ADD TO CART of 1,000 items: the device store, then 34 sends to the lab; a busy machine is slow.
const CART_TIMEOUT_MS = 180_000;

interface Entry {
  type: 'longtask' | 'event';
  name: string;
  start: number;
  duration: number;
  delay: number;
}

/**
 * Runs in the page before the app: every long task and event timing entry, kept on window. A
 * string, as the bench is type-checked without the DOM's types. 16 ms is the smallest threshold
 * Event Timing allows: every event of a frame or more is kept.
 */
const OBSERVE = `
  window.__perf = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__perf.push({ type: 'longtask', name: e.name, start: e.startTime, duration: e.duration, delay: 0 });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__perf.push({ type: 'event', name: e.name, start: e.startTime, duration: e.duration, delay: e.processingStart - e.startTime });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
`;

const now = (page: Page) => page.evaluate(() => performance.now());
const entriesSince = (page: Page, from: number) => page.evaluate(`window.__perf.filter((e) => e.start >= ${from})`) as Promise<Entry[]>;
const mountedTiles = (page: Page) => page.locator('.strip-tile').count();

interface Step {
  name: string;
  longest: number;
  tasks: number;
  delay: number;
  events: number;
  wall: number;
  /** Reads of the order's cart (retrieve_full_order pages) the page asked for during the step. */
  cartReads: number;
  /** The most thread CPU any one task used (Chromium trace): the longest task less the wait for a core. */
  mostCpu: number;
}

// BENCH_BUILDER_PROFILE=<dir>: each step's CPU profile of the page is written there (open it in
// Chromium's DevTools, Performance panel), to see which code a long task is.
const PROFILE_DIR = process.env.BENCH_BUILDER_PROFILE ?? '';
// BENCH_BUILDER_TRACE=<dir>: each step's Chromium trace is kept there, with style, layout, paint
// and script events (DevTools' Performance panel opens it), to see what a task's CPU went to.
const TRACE_DIR = process.env.BENCH_BUILDER_TRACE ?? '';
const keptTrace = (name: string) => {
  if (!TRACE_DIR) return undefined;
  mkdirSync(TRACE_DIR, { recursive: true });
  return join(TRACE_DIR, `${name.replace(/[^A-Za-z0-9]+/g, '-')}.json`);
};

/** Starts the page's CPU profiler when BENCH_BUILDER_PROFILE is set; the returned stop writes it. */
async function profile(page: Page, name: string): Promise<() => Promise<void>> {
  if (!PROFILE_DIR) return async () => {};
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  return async () => {
    const { profile: taken } = await cdp.send('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(join(PROFILE_DIR, `${name.replace(/[^A-Za-z0-9]+/g, '-')}.cpuprofile`), JSON.stringify(taken));
    await cdp.detach();
  };
}

async function step(page: Page, name: string, act: () => Promise<void>): Promise<Step> {
  const from = await now(page);
  const stopProfile = await profile(page, name);
  const stopTrace = await traceTasks(page, keptTrace(name));
  let cartReads = 0;
  const counted = (request: { url(): string }) => void (request.url().includes('/retrieve_full_order') && (cartReads += 1));
  page.on('request', counted);
  const started = performance.now();
  await act();
  const wall = performance.now() - started;
  await page.waitForTimeout(SETTLE_MS);
  page.off('request', counted);
  const { mostCpu } = await stopTrace();
  await stopProfile();
  const entries = await entriesSince(page, from);
  const tasks = entries.filter((e) => e.type === 'longtask');
  const events = entries.filter((e) => e.type === 'event');
  return {
    name,
    longest: Math.max(0, ...tasks.map((e) => e.duration)),
    tasks: tasks.length,
    delay: Math.max(0, ...events.map((e) => e.delay)),
    events: events.length,
    wall,
    mostCpu,
    cartReads,
  };
}

/**
 * Picks an option with the keyboard (trusted key presses, which Event Timing sees): the dropdown
 * (src/ui/list-select.tsx) opens with Down, each Down moves to the next option, Enter chooses.
 */
async function chooseByKeys(page: Page, label: string, name: string): Promise<void> {
  const select = page.getByRole('combobox', { name: label, exact: true });
  await select.waitFor();
  await select.focus();
  await page.keyboard.press('ArrowDown');
  const list = page.getByRole('listbox', { name: label, exact: true });
  // A print size's finishing arrives a moment after the size is chosen, into the open list.
  await list.getByRole('option').filter({ hasText: new RegExp(`^${name}`) }).first().waitFor();
  const active = () => page.evaluate(`document.getElementById(document.activeElement.getAttribute('aria-activedescendant') ?? '')?.textContent ?? ''`);
  for (let i = 0; i < 40; i++) {
    if (String(await active()).startsWith(name)) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`${label} never reached ${name}`);
}

/** Changes still waiting to be sent, read with the browser's own IndexedDB API. */
const outboxCount = (page: Page) =>
  page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('print-lab');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const req = db.transaction('outbox').objectStore('outbox').count();
      req.onsuccess = () => { resolve(req.result); db.close(); };
      req.onerror = () => reject(req.error);
    };
  })`) as Promise<number>;

export async function measureBuilder(browser: Browser, origin: string, session: SessionAnswer, seed: BuilderSeed, log: (line: string) => void): Promise<Row[]> {
  const context = await freshContext(browser, origin, session);
  const steps: Step[] = [];
  let maxTiles = 0;
  try {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.addInitScript({ content: OBSERVE });
    await page.addInitScript({ content: signalWhen('strip-counted', `document.querySelector('.photo-strip .strip-count')?.textContent === '0 of ${seed.photos} selected'`) });
    const strip = page.getByRole('region', { name: 'Photos of this order' });
    const count = (n: number) => strip.getByText(`${n} of ${seed.photos} selected`);
    const path = `/lab-orders/${seed.orderGuid}/edit/order-builder`;

    // First render: from navigation until the strip counts all 1,000 photos (the lab's list read
    // in pages into the device store, then shown).
    const first: Step = await (async () => {
      const stopProfile = await profile(page, 'first render');
      // The trace starts with the page blank: it follows the navigation's tasks from the first.
      await page.goto('about:blank');
      const stopTrace = await traceTasks(page, keptTrace('first render'));
      const started = performance.now();
      // Nothing of Playwright's runs in the page until the strip counts the photos (page-signal.ts).
      const counted = waitForSignal(page, 'strip-counted', 120_000);
      await page.goto(`${origin}${path}`);
      await counted;
      const wall = performance.now() - started;
      expectScreen(page, path);
      await page.waitForTimeout(SETTLE_MS);
      const { mostCpu } = await stopTrace();
      await stopProfile();
      const entries = await entriesSince(page, 0);
      const tasks = entries.filter((e) => e.type === 'longtask');
      return { name: 'first render (to 1,000 photos shown)', longest: Math.max(0, ...tasks.map((e) => e.duration)), tasks: tasks.length, delay: 0, events: 0, wall, mostCpu, cartReads: 0 };
    })();
    steps.push(first);
    maxTiles = Math.max(maxTiles, await mountedTiles(page));

    steps.push(await step(page, 'SELECT ALL (1,000)', async () => {
      await strip.getByRole('button', { name: 'SELECT ALL' }).click();
      await count(seed.photos).waitFor();
    }));
    steps.push(await step(page, 'choose paper and size', async () => {
      await chooseByKeys(page, 'PAPER', 'Lustre');
      await chooseByKeys(page, 'PRINT SIZE', '8x10');
      await chooseByKeys(page, 'FINISHING', 'NONE');
    }));
    steps.push(await step(page, 'scroll the strip end to end', async () => {
      const box = await strip.locator('.strip-scroller').boundingBox();
      if (!box) throw new Error('the strip is not on screen');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const atEnd = () => strip.locator('.strip-scroller').evaluate((el) => el.scrollLeft + el.clientWidth >= el.scrollWidth - 1);
      for (let i = 0; i < 400 && !(await atEnd()); i++) {
        await page.mouse.wheel(1_200, 0);
        maxTiles = Math.max(maxTiles, await mountedTiles(page));
      }
      if (!(await atEnd())) throw new Error('the strip did not scroll to its end');
    }));
    steps.push(await step(page, 'select one photo, move the cropper', async () => {
      await strip.getByRole('button', { name: 'RESET' }).click();
      await count(0).waitFor();
      await strip.locator('.strip-scroller').evaluate((el) => el.scrollTo({ left: 0 }));
      await strip.getByRole('button', { name: 'IMG_0001.jpg', exact: true }).click();
      await count(1).waitFor();
      const frame = page.locator('.cropper-frame');
      await frame.locator('img').first().waitFor();
      const box = await frame.boundingBox();
      if (!box) throw new Error('no cropper on screen');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 30, { steps: 30 });
      await page.mouse.up();
    }));
    maxTiles = Math.max(maxTiles, await mountedTiles(page));
    steps.push(await step(page, 'ADD TO CART (1,000, to the review)', async () => {
      await strip.getByRole('button', { name: 'RESET' }).click();
      await strip.getByRole('button', { name: 'SELECT ALL' }).click();
      await count(seed.photos).waitFor();
      await page.getByRole('button', { name: 'ADD TO CART', exact: true }).click();
      await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Looks Good' }).click();
      await page.waitForURL(`**/lab-orders/${seed.orderGuid}/review`, { timeout: CART_TIMEOUT_MS });
    }));
    steps.push(await step(page, 'the outbox sends 34 batches', async () => {
      const deadline = Date.now() + CART_TIMEOUT_MS;
      while ((await outboxCount(page)) > 0) {
        if (Date.now() > deadline) throw new Error('the outbox did not empty');
        await page.waitForTimeout(250);
      }
    }));
  } finally {
    await context.close();
  }

  const rows: Row[] = [];
  for (const s of steps) {
    log(`builder: ${s.name}: ${(s.wall / 1000).toFixed(2)} s, ${s.tasks} long tasks (longest ${ms(s.longest)}; most CPU in a task ${ms(s.mostCpu)}), ${s.events} slow events (worst input delay ${ms(s.delay)}), ${s.cartReads} cart reads`);
    rows.push({ area: 'builder 1,000', figure: `${s.name}: longest task`, value: ms(s.longest), target: `<= ${TASK_BUDGET_MS} ms`, result: verdict(s.longest <= TASK_BUDGET_MS) });
    rows.push({ area: 'builder 1,000', figure: `${s.name}: most CPU in one task (trace)`, value: ms(s.mostCpu), target: `<= ${TASK_BUDGET_MS} ms`, result: verdict(s.mostCpu <= TASK_BUDGET_MS) });
    if (s.events) rows.push({ area: 'builder 1,000', figure: `${s.name}: input delay`, value: ms(s.delay), target: `<= ${TASK_BUDGET_MS} ms`, result: verdict(s.delay <= TASK_BUDGET_MS) });
  }
  rows.push({ area: 'builder 1,000', figure: 'strip tiles mounted (most seen)', value: String(maxTiles), target: `<= ${TILE_BOUND}`, result: verdict(maxTiles <= TILE_BOUND && maxTiles > 0) });
  return rows;
}
