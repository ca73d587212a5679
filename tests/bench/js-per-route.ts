/**
 * 4. JavaScript per route: what a first visit to /login (signed out) and /lab-orders (signed in)
 * downloads, in a fresh Chromium context with no service worker. Bytes as sent over the wire;
 * when the server sends scripts uncompressed, the gzip size is computed here and labelled so.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, Response } from 'playwright-core';
import type { SessionAnswer } from '../../src/contract/session.ts';
import { expectScreen, freshContext } from './browser.ts';
import { kb } from './http.ts';
import { describeError, errorRow, verdict, type Row } from './report.ts';

// docs/performance-notes.md §8: the JavaScript of /login and /lab-orders stays within 150 KB gzip each.
export const JS_BUDGET_BYTES = 150 * 1024;
// zlib's default level, the one Vite's build report gives its gzip sizes at (level 9 saves
// next to nothing on this bundle).
const GZIP_LEVEL = 6;

// A first visit on a loaded machine (load averages of 30 on two cores are seen here) can take
// well over Playwright's default 30 s to reach network idle.
const LOAD_TIMEOUT_MS = 120_000;

export interface JsRoute {
  path: string;
  session?: SessionAnswer;
  label: string;
}

export interface Script {
  name: string;
  wire: number;
  raw: number;
  gzip: number;
  encoding: string | null;
}

async function scriptOf(response: Response): Promise<Script | null> {
  const request = response.request();
  const type = response.headers()['content-type'] ?? '';
  if (request.resourceType() !== 'script' && !/javascript/.test(type)) return null;
  const body = await response.body();
  const sizes = await request.sizes();
  return {
    name: new URL(response.url()).pathname,
    wire: sizes.responseBodySize,
    raw: body.length,
    gzip: gzipSync(body, { level: GZIP_LEVEL }).length,
    encoding: response.headers()['content-encoding'] ?? null,
  };
}

export interface RouteScripts {
  scripts: Script[];
  /** What the budget judges: wire bytes when every script came compressed, else gzip computed here. */
  judged: number;
  /** The total in words: sent or computed, the encodings, the count and raw size. */
  value: string;
}

/** The scripts a first visit to `route` loads (fresh context, no service worker). */
export async function routeScripts(browser: Browser, origin: string, route: JsRoute): Promise<RouteScripts> {
  const context = await freshContext(browser, origin, route.session);
  try {
    const page = await context.newPage();
    const pending: Promise<Script | null>[] = [];
    page.on('response', (r) => {
      const script = scriptOf(r);
      // Awaited below when the page loads; if it does not, the context closes under it.
      script.catch(() => undefined);
      pending.push(script);
    });
    await page.goto(`${origin}${route.path}`, { waitUntil: 'networkidle', timeout: LOAD_TIMEOUT_MS });
    expectScreen(page, route.path);
    const scripts = (await Promise.all(pending)).filter((s): s is Script => s !== null);
    if (!scripts.length) throw new Error(`no JavaScript loaded on ${route.path}`);
    const sum = (f: (s: Script) => number) => scripts.reduce((a, s) => a + f(s), 0);
    const compressed = scripts.every((s) => s.encoding === 'gzip' || s.encoding === 'br');
    const encodings = [...new Set(scripts.map((s) => s.encoding ?? 'uncompressed'))].join('+');
    // Judged on what crossed the wire when every script came compressed; otherwise on the
    // gzip size computed here (what the same bytes would weigh once the server compresses).
    const judged = compressed ? sum((s) => s.wire) : sum((s) => s.gzip);
    const value = compressed
      ? `${kb(judged)} sent (${encodings}; ${scripts.length} scripts, ${kb(sum((s) => s.raw))} raw, gzip -${GZIP_LEVEL} ${kb(sum((s) => s.gzip))})`
      : `${kb(judged)} gzip -${GZIP_LEVEL} computed (sent ${encodings}: ${kb(sum((s) => s.wire))} on the wire, ${kb(sum((s) => s.raw))} raw; ${scripts.length} scripts)`;
    return { scripts, judged, value };
  } finally {
    await context.close();
  }
}

export const logScripts = (path: string, scripts: Script[], log: (line: string) => void) => {
  for (const s of scripts) log(`   ${path.padEnd(12)} ${s.name.padEnd(48)} wire ${kb(s.wire).padStart(9)} (${s.encoding ?? 'uncompressed'})  raw ${kb(s.raw).padStart(9)}  gzip -${GZIP_LEVEL} ${kb(s.gzip).padStart(9)}`);
};

export async function measureJs(browser: Browser, origin: string, routes: JsRoute[], log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  log('4. JavaScript per route (Chromium, fresh context, service worker blocked)');
  for (const route of routes) {
    const figure = `${route.path} JS (${route.label})`;
    const target = `<= ${kb(JS_BUDGET_BYTES)} gzip`;
    try {
      const { scripts, judged, value } = await routeScripts(browser, origin, route);
      logScripts(route.path, scripts, log);
      log(`   ${route.path}: ${value}`);
      rows.push({ area: 'JS per route', figure, value, target, result: verdict(judged <= JS_BUDGET_BYTES) });
    } catch (err) {
      log(`   ${route.path}: bench error: ${describeError(err)}`);
      rows.push(errorRow('JS per route', figure, target, err));
    }
  }
  return rows;
}
