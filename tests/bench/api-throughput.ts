/**
 * 1. Requests/s of each API read at 50 connections, as a ratio to the floor outside our stack: a
 * plain Fastify process of its own answering the same call with the same bytes and headers
 * (floor-server.ts, our answers captured once). The in-app floor (the BENCH_FLOOR route: our
 * process, plugins and hooks, no work) is printed beside it, so that what our hooks cost and what
 * a route's own work costs show apart. The machine is shared, so only ratios measured back to
 * back in one run mean anything; no absolute figure is judged.
 */
import autocannon, { type Result } from 'autocannon';
import { BENCH_FLOOR_MAX_BYTES, BENCH_FLOOR_MIN_BYTES, BENCH_FLOOR_PATH } from '../../server/routes/bench-floor-routes.ts';
import { answerKey, captureAnswer, startFloor, type CapturedAnswers } from './floor-answers.ts';
import { BROWSER_ACCEPT, get, kb, settle } from './http.ts';
import { describeError, ms, verdict, errorRow, type Row } from './report.ts';

// Fifty users of the lab's app at once, each waiting for its answer before the next call.
const CONNECTIONS = 50;
// One second of traffic before each measured run, so the JIT and the caches of both the route
// and the floor are warm; it is not counted.
const WARMUP_SECONDS = 1;
// The team's targets (issue 32): a read with no work (status) keeps at least half the rate of the
// plain framework answering its bytes; a signed-in read (a session lookup plus a query) 30 %.
export const PUBLIC_MIN_RATIO = 0.5;
export const SIGNED_IN_MIN_RATIO = 0.3;

export interface ReadRoute {
  /** As printed: method and the route's pattern. */
  name: string;
  /** The concrete path (and query) requested. */
  path: string;
  signedIn: boolean;
  /** Another caller's session than the photographer's (the admin's first page). */
  token?: string;
  /** The route's own target instead of the public or signed-in one. */
  minRatio?: number;
  /** A p50 target at this concurrency, in ms. */
  p50MaxMs?: number;
}

export interface ApiReadsInput {
  origin: string;
  routes: ReadRoute[];
  /** The signed-in photographer's session token. */
  token: string;
  durationSeconds: number;
  log: (line: string) => void;
}

interface Run {
  result: Result;
  /**
   * Answers the server worked out per second: every request sent in the run (those still in
   * flight when it stopped are worked off before the server is idle again), over the time until
   * it is. A route slower than the run still gets its true, low rate rather than 0 because no
   * answer happened to finish inside the window.
   */
  rate: number;
}

async function cannon(origin: string, url: string, headers: Record<string, string>, duration: number, warm: boolean): Promise<Run> {
  if (warm) {
    await autocannon({ url, headers, connections: CONNECTIONS, duration: WARMUP_SECONDS });
    await settled(origin);
  }
  const started = performance.now();
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration });
  await settled(origin);
  return { result, rate: result.requests.sent / ((performance.now() - started) / 1000) };
}

/** Waits for our server to be idle (see settle); a machine too busy for that is said, not hidden. */
async function settled(origin: string): Promise<void> {
  if ((await settle(origin)) === null) console.log('   (the server did not become idle within 30 s; the next figure may be low)');
}

const rps = (n: number) => (n < 10 ? n.toFixed(1) : String(Math.round(n)));
const latency = (r: Result) => `${ms(r.latency.p50)}/${ms(r.latency.p99)}`;

function failures(r: Result): string | null {
  if (r.non2xx > 0) return `${r.non2xx} answers were not 2xx (${Object.keys(r.statusCodeStats).join(', ')})`;
  if (r.errors > 0) return `${r.errors} connection errors (${r.timeouts} time-outs)`;
  return null;
}

const headersOf = (route: ReadRoute, token: string): Record<string, string> => ({ ...BROWSER_ACCEPT, ...(route.signedIn ? { token: route.token ?? token } : {}) });

/** Each route's answer once, for the outside floor; keyed per caller (the admin's list is not a photographer's). */
async function captureAll(origin: string, routes: ReadRoute[], token: string): Promise<CapturedAnswers> {
  const answers: CapturedAnswers = {};
  for (const route of routes) {
    const headers = headersOf(route, token);
    const answer = await captureAnswer(origin, 'GET', route.path, headers);
    if (answer.status !== 200) throw new Error(`GET ${route.path} answered ${answer.status}: ${Buffer.from(answer.body, 'base64').toString().slice(0, 200)}`);
    const key = answerKey('GET', route.path);
    answers[headers.token ? `${key} ${headers.token}` : key] = answer;
  }
  return answers;
}

export async function measureApiReads(input: ApiReadsInput): Promise<Row[]> {
  const { origin, token, durationSeconds, log } = input;
  const rows: Row[] = [];
  log(`1. API reads: requests/s at ${CONNECTIONS} connections, ${durationSeconds} s each, against the floor outside our stack (a plain Fastify process serving our captured answers)`);
  log(`   outside = mean of the outside floor's rate just before and just after the route; drift = how far those two differ (noise from the shared machine)`);
  log(`   in-app = our process answering a static JSON of the same size through all our hooks (its ratio to the outside floor is our fixed cost)`);
  log(
    `   ${'route'.padEnd(52)} ${'answer'.padEnd(22)} ${'req/s'.padStart(7)} ${'outside'.padStart(7)} ${'ratio'.padStart(6)} ${'drift'.padStart(6)} ${'in-app'.padStart(7)} ${'ratio'.padStart(6)}  p50/p99 route | outside | in-app`,
  );
  let floor;
  try {
    floor = await startFloor(await captureAll(origin, input.routes, token));
  } catch (err) {
    log(`   the outside floor: bench error: ${describeError(err)}`);
    return input.routes.map((r) => errorRow(r.signedIn ? 'API signed-in read' : 'API public read', `${r.name} req/s ÷ floor`, 'the floor', err));
  }
  try {
    for (const route of input.routes) {
      const min = route.minRatio ?? (route.signedIn ? SIGNED_IN_MIN_RATIO : PUBLIC_MIN_RATIO);
      const area = route.signedIn ? 'API signed-in read' : 'API public read';
      const figure = `${route.name} req/s ÷ outside floor`;
      const target = `>= ${min}${route.p50MaxMs ? `, p50 < ${route.p50MaxMs} ms` : ''}`;
      try {
        const headers = headersOf(route, token);
        const probe = await get(`${origin}${route.path}`, headers);
        if (probe.status !== 200) throw new Error(`GET ${route.path} answered ${probe.status}: ${probe.body.toString().slice(0, 200)}`);
        const bytes = Math.min(BENCH_FLOOR_MAX_BYTES, Math.max(BENCH_FLOOR_MIN_BYTES, probe.rawBytes));
        // The in-app floor is asked without a token: our framework and hooks alone, same bytes.
        const inAppUrl = `${origin}/api/v2${BENCH_FLOOR_PATH}?bytes=${bytes}`;
        // The outside floor runs before and after the route, so a neighbour's burst shows as drift.
        const before = await cannon(origin, `${floor.origin}${route.path}`, headers, durationSeconds, true);
        const inApp = await cannon(origin, inAppUrl, { ...BROWSER_ACCEPT }, durationSeconds, true);
        const measured = await cannon(origin, `${origin}${route.path}`, headers, durationSeconds, true);
        const after = await cannon(origin, `${floor.origin}${route.path}`, headers, durationSeconds, false);
        const problem = failures(before.result) ?? failures(inApp.result) ?? failures(measured.result) ?? failures(after.result);
        if (problem) throw new Error(problem);
        const outside = (before.rate + after.rate) / 2;
        const outsideLatency = `${ms(Math.max(before.result.latency.p50, after.result.latency.p50))}/${ms(Math.max(before.result.latency.p99, after.result.latency.p99))}`;
        const drift = Math.abs(before.rate - after.rate) / outside;
        const ratio = measured.rate / outside;
        const inAppRatio = inApp.rate / outside;
        // Latencies exist only for answers that finished inside the run.
        const routeLatency = measured.result.requests.total ? latency(measured.result) : `none within ${durationSeconds} s`;
        const answer = `${kb(probe.rawBytes)}${probe.encoding ? ` (${probe.encoding} ${kb(probe.wireBytes)})` : ''}`;
        log(
          `   ${route.name.padEnd(52)} ${answer.padEnd(22)} ${rps(measured.rate).padStart(7)} ${rps(outside).padStart(7)} ${ratio.toFixed(2).padStart(6)} ${`${Math.round(drift * 100)}%`.padStart(6)} ${rps(inApp.rate).padStart(7)} ${inAppRatio.toFixed(2).padStart(6)}  ${routeLatency} | ${outsideLatency} | ${latency(inApp.result)}`,
        );
        const p50Ok = route.p50MaxMs === undefined || (measured.result.requests.total > 0 && measured.result.latency.p50 < route.p50MaxMs);
        rows.push({
          area,
          figure,
          value: `${ratio.toFixed(2)} (${rps(measured.rate)} vs ${rps(outside)} req/s; in-app floor ${inAppRatio.toFixed(2)}; p50/p99 ${routeLatency}; ${answer})`,
          target,
          result: verdict(ratio >= min && p50Ok),
        });
      } catch (err) {
        log(`   ${route.name}: bench error: ${describeError(err)}`);
        rows.push(errorRow(area, figure, target, err));
      }
    }
  } finally {
    await floor.stop();
  }
  return rows;
}
