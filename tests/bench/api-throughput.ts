/**
 * 1. Requests/s of each API read at 50 connections, as a ratio to the same server process
 * answering a precomputed JSON of the same size (the BENCH_FLOOR route). The machine is shared,
 * so only ratios measured back to back in one run mean anything; no absolute figure is judged.
 */
import autocannon, { type Result } from 'autocannon';
import { BENCH_FLOOR_MAX_BYTES, BENCH_FLOOR_MIN_BYTES, BENCH_FLOOR_PATH } from '../../server/routes/bench-floor-routes.ts';
import { BROWSER_ACCEPT, get, kb, settle } from './http.ts';
import { describeError, ms, verdict, errorRow, type Row } from './report.ts';

// Fifty users of the lab's app at once, each waiting for its answer before the next call.
const CONNECTIONS = 50;
// One second of traffic before each measured run, so the JIT and the caches of both the route
// and the floor are warm; it is not counted.
const WARMUP_SECONDS = 1;
// The team's targets: a public catalogue read is immutable data, so it should keep at least half
// the rate of the bare framework; a signed-in read (a session lookup plus a query) at least 30 %.
export const PUBLIC_MIN_RATIO = 0.5;
export const SIGNED_IN_MIN_RATIO = 0.3;

export interface ReadRoute {
  /** As printed: method and the route's pattern. */
  name: string;
  /** The concrete path (and query) requested. */
  path: string;
  signedIn: boolean;
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

/** Waits for the server to be idle (see settle); a machine too busy for that is said, not hidden. */
async function settled(origin: string): Promise<void> {
  if ((await settle(origin)) === null) console.log('   (the server did not become idle within 30 s; the next figure may be low)');
}

const rps = (n: number) => (n < 10 ? n.toFixed(1) : String(Math.round(n)));

function failures(r: Result): string | null {
  if (r.non2xx > 0) return `${r.non2xx} answers were not 2xx (${Object.keys(r.statusCodeStats).join(', ')})`;
  if (r.errors > 0) return `${r.errors} connection errors (${r.timeouts} time-outs)`;
  return null;
}

export async function measureApiReads(input: ApiReadsInput): Promise<Row[]> {
  const { origin, token, durationSeconds, log } = input;
  const rows: Row[] = [];
  log(`1. API reads: requests/s at ${CONNECTIONS} connections, ${durationSeconds} s each, against the floor (same process, static JSON of the same size)`);
  log(`   floor = mean of the floor's rate just before and just after the route; drift = how far those two differ (noise from the shared machine)`);
  log(`   ${'route'.padEnd(58)} ${'answer'.padEnd(22)} ${'req/s'.padStart(7)} ${'floor'.padStart(7)} ${'ratio'.padStart(6)} ${'drift'.padStart(6)}  p50/p99 route | floor`);
  for (const route of input.routes) {
    const min = route.signedIn ? SIGNED_IN_MIN_RATIO : PUBLIC_MIN_RATIO;
    const area = route.signedIn ? 'API signed-in read' : 'API public read';
    const figure = `${route.name} req/s ÷ floor`;
    const target = `>= ${min}`;
    try {
      const headers: Record<string, string> = { ...BROWSER_ACCEPT, ...(route.signedIn ? { token } : {}) };
      const url = `${origin}${route.path}`;
      const probe = await get(url, headers);
      if (probe.status !== 200) throw new Error(`GET ${route.path} answered ${probe.status}: ${probe.body.toString().slice(0, 200)}`);
      const bytes = Math.min(BENCH_FLOOR_MAX_BYTES, Math.max(BENCH_FLOOR_MIN_BYTES, probe.rawBytes));
      // The floor is asked without a token: it stands for the framework alone, with the same
      // hooks (security headers, compression when the branch has it) and the same bytes. It runs
      // before and after the route, so a neighbour's burst on the shared machine shows as drift.
      const floorUrl = `${origin}/api/v2${BENCH_FLOOR_PATH}?bytes=${bytes}`;
      const before = await cannon(origin, floorUrl, { ...BROWSER_ACCEPT }, durationSeconds, true);
      const measured = await cannon(origin, url, headers, durationSeconds, true);
      const after = await cannon(origin, floorUrl, { ...BROWSER_ACCEPT }, durationSeconds, false);
      const problem = failures(before.result) ?? failures(measured.result) ?? failures(after.result);
      if (problem) throw new Error(problem);
      const floor = {
        rps: (before.rate + after.rate) / 2,
        latency: `${ms(Math.max(before.result.latency.p50, after.result.latency.p50))}/${ms(Math.max(before.result.latency.p99, after.result.latency.p99))}`,
      };
      const drift = Math.abs(before.rate - after.rate) / floor.rps;
      const ratio = measured.rate / floor.rps;
      const { latency } = measured.result;
      // Latencies exist only for answers that finished inside the run.
      const routeLatency = measured.result.requests.total ? `${ms(latency.p50)}/${ms(latency.p99)}` : `none within ${durationSeconds} s`;
      const answer = `${kb(probe.rawBytes)}${probe.encoding ? ` (${probe.encoding} ${kb(probe.wireBytes)})` : ''}`;
      log(
        `   ${route.name.padEnd(58)} ${answer.padEnd(22)} ${rps(measured.rate).padStart(7)} ${rps(floor.rps).padStart(7)} ${ratio.toFixed(2).padStart(6)} ${`${Math.round(drift * 100)}%`.padStart(6)}  ${routeLatency} | ${floor.latency}`,
      );
      rows.push({
        area,
        figure,
        value: `${ratio.toFixed(2)} (${rps(measured.rate)} vs ${rps(floor.rps)} req/s; p50/p99 ${routeLatency}; ${answer})`,
        target,
        result: verdict(ratio >= min),
      });
    } catch (err) {
      log(`   ${route.name}: bench error: ${describeError(err)}`);
      rows.push(errorRow(area, figure, target, err));
    }
  }
  return rows;
}
