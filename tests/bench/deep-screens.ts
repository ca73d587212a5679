/**
 * Deep screens on a tablet (issue 32): the builder (20 and 200 photos), the cart review (20 line
 * items), checkout details and final, and a placed order's detail, each judged on Lighthouse's
 * mobile default (score, TBT, LCP, the median of the runs) and on the script a first visit loads.
 */
import type { Browser } from 'playwright-core';
import { kb } from './http.ts';
import { JS_BUDGET_BYTES, logScripts, routeScripts } from './js-per-route.ts';
import { medianAudit, portCycle, SCORE_TARGET, type Audit } from './lighthouse-audit.ts';
import { describeError, errorRow, verdict, type Row } from './report.ts';
import type { DeepSeed } from './seed-deep-screens.ts';

const AREA = 'Deep screens';
// Issue 32's targets for these screens, on Lighthouse's mobile default.
const TBT_TARGET_MS = 200;
const LCP_TARGET_MS = 2_500;

const seconds = (n: number | null) => (n === null ? '?' : `${(n / 1000).toFixed(2)} s`);
const millis = (n: number | null) => (n === null ? '?' : `${Math.round(n)} ms`);

function lighthouseRow(label: string, audit: Audit): Row {
  const score = audit.scores.performance;
  const pass = score !== null && score >= SCORE_TARGET && (audit.tbtMs ?? Infinity) < TBT_TARGET_MS && (audit.lcpMs ?? Infinity) < LCP_TARGET_MS;
  return {
    area: AREA,
    figure: `${label}: mobile Lighthouse`,
    value: `${score ?? 'no score'} (TBT ${millis(audit.tbtMs)}, LCP ${seconds(audit.lcpMs)}, bootup ${millis(audit.bootupMs)}, main thread ${millis(audit.mainThreadMs)})`,
    target: `>= ${SCORE_TARGET}, TBT < ${TBT_TARGET_MS} ms, LCP < ${seconds(LCP_TARGET_MS)}`,
    result: score === null ? 'ERROR' : verdict(pass),
  };
}

/** The script a first visit to each deep screen loads (a Playwright browser, fresh context each). */
export async function measureDeepScripts(browser: Browser, origin: string, seed: DeepSeed, log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  log('Deep screens: script per screen (Chromium, fresh context, service worker blocked)');
  for (const screen of seed.screens) {
    const target = `<= ${kb(JS_BUDGET_BYTES)} gzip`;
    try {
      const { scripts, judged, value } = await routeScripts(browser, origin, { ...screen, session: seed.session });
      logScripts(screen.label, scripts, log);
      log(`   ${screen.label}: ${value}`);
      rows.push({ area: AREA, figure: `${screen.label}: script`, value, target, result: verdict(judged <= JS_BUDGET_BYTES) });
    } catch (err) {
      log(`   ${screen.label}: bench error: ${describeError(err)}`);
      rows.push(errorRow(AREA, `${screen.label}: script`, target, err));
    }
  }
  return rows;
}

/** Lighthouse's mobile default on each deep screen (its own Chromium per run, from chrome-launcher). */
export async function measureDeepLighthouse(
  origin: string,
  seed: DeepSeed,
  opts: { runs: number; ports: number[]; reportsDir: string | null; log: (line: string) => void },
): Promise<Row[]> {
  const { log } = opts;
  const rows: Row[] = [];
  const nextPort = portCycle(opts.ports);
  log(`Deep screens: mobile Lighthouse${opts.runs > 1 ? ` (median of ${opts.runs} runs by score)` : ''}`);
  for (const screen of seed.screens) {
    try {
      const audit = await medianAudit(origin, { ...screen, session: seed.session }, 'mobile', { runs: opts.runs, nextPort, reportsDir: opts.reportsDir, log });
      const row = lighthouseRow(screen.label, audit);
      log(`   ${screen.label}: ${row.value}; machine benchmark index ${audit.benchmarkIndex === null ? '?' : Math.round(audit.benchmarkIndex)}`);
      if (audit.failedAudits.length) log(`   ${screen.label}: audits below 90: ${audit.failedAudits.join(', ')}`);
      rows.push(row);
    } catch (err) {
      log(`   ${screen.label}: bench error: ${describeError(err)}`);
      rows.push(errorRow(AREA, `${screen.label}: mobile Lighthouse`, `>= ${SCORE_TARGET}`, err));
    }
  }
  return rows;
}
