/**
 * 3. Lighthouse 12 scores of /login and /lab-orders at its mobile default (a mid-range phone on
 * slow 4G, simulated) and at its desktop preset. Each audit gets a fresh Chromium profile from
 * chrome-launcher (empty cache, no service worker); for a signed-in screen the session is put in
 * local storage first, from a page of the same origin that runs no app code.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags } from 'lighthouse';
import { chromium } from 'playwright-core';
import type { SessionAnswer } from '../../src/contract/session.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/browser.ts';
import { isStopping, onCleanup } from './cleanup.ts';
import { sessionStorageEntries } from './http.ts';
import { describeError, errorRow, type Row, verdict } from './report.ts';

export const SCORE_TARGET = 95;
// Lighthouse sometimes loses a trace on a loaded machine ("NO_NAVSTART … Please run Lighthouse
// again"); such a run is repeated this many times before it counts as a bench error.
const RETRIES = 2;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];
// Lighthouse's mobile default (a mid-range phone, slow 4G, simulated), then its desktop preset.
const PRESETS = ['mobile', 'desktop'] as const;
export type Preset = (typeof PRESETS)[number];

export interface LighthousePage {
  path: string;
  label: string;
  session?: SessionAnswer;
}

export interface Audit {
  scores: Record<Category, number | null>;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  /** Script evaluation and parse time (bootup-time) and all main-thread work, at the simulated CPU. */
  bootupMs: number | null;
  mainThreadMs: number | null;
  /** Lighthouse's own measure of how fast the machine was during the run (higher is faster). */
  benchmarkIndex: number | null;
  failedAudits: string[];
}

async function putSession(port: number, origin: string, session: SessionAnswer): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('chrome-launcher started Chromium without a default context');
    const page = await context.newPage();
    // The status call is JSON: the app does not run there, so no service worker gets registered.
    await page.goto(`${origin}/api/v2/status`);
    await page.evaluate((entries) => {
      const storage = (globalThis as unknown as { localStorage: { setItem(name: string, value: string): void } }).localStorage;
      for (const { name, value } of entries) storage.setItem(name, value);
    }, sessionStorageEntries(session));
    await page.close();
  } finally {
    // Disconnects only: Chromium is chrome-launcher's to stop.
    await browser.close();
  }
}

async function auditOnce(origin: string, page: LighthousePage, preset: Preset, port: number, reportFile: string | null): Promise<Audit> {
  if (isStopping()) throw new Error('the bench is stopping');
  // handleSIGINT off: chrome-launcher's handler would exit the process before the bench's clean-up.
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, port, logLevel: 'silent', handleSIGINT: false });
  try {
    if (page.session) await putSession(chrome.port, origin, page.session);
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      // Keeps the local storage set above (the profile is fresh, so nothing else is kept).
      disableStorageReset: Boolean(page.session),
    };
    const result = await lighthouse(`${origin}${page.path}`, flags, preset === 'desktop' ? desktopConfig : undefined);
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (reportFile) writeFileSync(reportFile, JSON.stringify(lhr));
    if (lhr.runtimeError) throw new LighthouseRunError(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const landed = new URL(lhr.finalDisplayedUrl).pathname;
    if (landed !== page.path) throw new Error(`the audited page ended on ${landed}, not ${page.path}`);
    const score = (c: Category) => {
      const s = lhr.categories[c]?.score;
      return typeof s === 'number' ? Math.round(s * 100) : null;
    };
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? null;
    const failedAudits = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
      .map((a) => a.id);
    return {
      scores: { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices') },
      lcpMs: numeric('largest-contentful-paint'),
      tbtMs: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      bootupMs: numeric('bootup-time'),
      mainThreadMs: numeric('mainthread-work-breakdown'),
      benchmarkIndex: lhr.environment.benchmarkIndex ?? null,
      failedAudits,
    };
  } finally {
    chrome.kill();
  }
}

// Last resort when the bench exits mid-launch: chrome-launcher knows each Chromium from its spawn.
process.on('exit', () => void chromeLauncher.killAll());

class LighthouseRunError extends Error {}

/** One audit, run again when Lighthouse itself lost the run; every Chromium on a fresh port. */
async function auditWithRetries(
  origin: string,
  page: LighthousePage,
  preset: Preset,
  nextPort: () => number,
  reportFile: string | null,
  log: (line: string) => void,
): Promise<Audit> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await auditOnce(origin, page, preset, nextPort(), reportFile);
    } catch (err) {
      if (!(err instanceof LighthouseRunError) || attempt >= RETRIES) throw err;
      log(`   ${page.path} ${preset}: ${err.message}; running it again`);
    }
  }
}

const timings = (audit: Audit) => ({
  lcp: audit.lcpMs === null ? '?' : `${(audit.lcpMs / 1000).toFixed(2)} s`,
  tbt: audit.tbtMs === null ? '?' : `${Math.round(audit.tbtMs)} ms`,
});

function rowsOf(name: string, audit: Audit): Row[] {
  const { lcp, tbt } = timings(audit);
  return CATEGORIES.map((category) => {
    const s = audit.scores[category];
    return {
      area: 'Lighthouse',
      figure: `${name} ${category}`,
      value: `${s ?? 'no score'}${category === 'performance' ? ` (LCP ${lcp}, TBT ${tbt})` : ''}`,
      target: `>= ${SCORE_TARGET}`,
      result: s === null ? 'ERROR' : verdict(s >= SCORE_TARGET),
    };
  });
}

/** A port of its own per Chromium, in turn: one still closing may hold the last. */
export function portCycle(ports: number[]): () => number {
  let launches = 0;
  return () => ports[launches++ % ports.length] ?? 0;
}

/**
 * `runs` audits of one page with one preset; answers the median by performance score. With
 * `reportsDir`, each run's full JSON is kept there (to read its bootup-time and main-thread work).
 */
export async function medianAudit(
  origin: string,
  page: LighthousePage,
  preset: Preset,
  opts: { runs: number; nextPort: () => number; reportsDir: string | null; log: (line: string) => void },
): Promise<Audit> {
  const { reportsDir } = opts;
  if (reportsDir) mkdirSync(reportsDir, { recursive: true });
  const reportFile = (run: number) => (reportsDir ? join(reportsDir, `${page.path.replace(/\W+/g, '') || 'root'}-${preset}-${run + 1}.json`) : null);
  const runs: Audit[] = [];
  for (let i = 0; i < opts.runs; i++) runs.push(await auditWithRetries(origin, page, preset, opts.nextPort, reportFile(i), opts.log));
  runs.sort((a, b) => (a.scores.performance ?? -1) - (b.scores.performance ?? -1));
  const audit = runs[Math.floor(runs.length / 2)];
  if (!audit) throw new Error('no Lighthouse run');
  return audit;
}

export async function measureLighthouse(
  origin: string,
  pages: LighthousePage[],
  opts: { runs: number; ports: number[]; reportsDir: string | null; log: (line: string) => void },
): Promise<Row[]> {
  const { log } = opts;
  const rows: Row[] = [];
  // A Chromium still starting when the bench is stopped has no handle yet: killAll reaches it.
  const forget = onCleanup(() => void chromeLauncher.killAll());
  const nextPort = portCycle(opts.ports);
  log(`3. Lighthouse ${opts.runs > 1 ? `(median of ${opts.runs} runs by performance) ` : ''}performance, accessibility, best practices`);
  try {
    for (const page of pages) {
      for (const preset of PRESETS) {
        const name = `${page.path} ${preset}`;
        try {
          const audit = await medianAudit(origin, page, preset, { ...opts, nextPort });
          const { scores } = audit;
          const { lcp, tbt } = timings(audit);
          log(
            `   ${name.padEnd(22)} (${page.label}) performance ${scores.performance ?? '?'}, accessibility ${scores.accessibility ?? '?'}, best practices ${scores['best-practices'] ?? '?'}; LCP ${lcp}, TBT ${tbt}, CLS ${audit.cls?.toFixed(3) ?? '?'}; machine benchmark index ${audit.benchmarkIndex === null ? '?' : Math.round(audit.benchmarkIndex)}`,
          );
          if (audit.failedAudits.length) log(`   ${''.padEnd(22)} audits below 90: ${audit.failedAudits.join(', ')}`);
          rows.push(...rowsOf(name, audit));
        } catch (err) {
          log(`   ${name}: bench error: ${describeError(err)}`);
          for (const category of CATEGORIES) rows.push(errorRow('Lighthouse', `${name} ${category}`, `>= ${SCORE_TARGET}`, err));
        }
      }
    }
  } finally {
    forget();
  }
  return rows;
}
