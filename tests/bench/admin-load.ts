/**
 * 2. Does one heavy answer stall everybody else? The p99 of cheap reads at a steady rate, first
 * alone (the baseline), then while an admin keeps loading the orders list of a 10,000-order lab
 * (the embedded database answers one query at a time: a slow one there delays every other request's).
 */
import autocannon, { type Result } from 'autocannon';
import { BROWSER_ACCEPT, get, kb, settle, type Answer } from './http.ts';
import { describeError, ms, verdict, errorRow, type Row } from './report.ts';

// A busy lab's traffic: 10 users' apps, 50 calls a second between them. Well below what even
// today's server sustains for these reads, so the latency shows blocking rather than queueing;
// autocannon corrects a fixed rate for coordinated omission (a stalled call is not hidden by the
// calls it never sent meanwhile).
const CONNECTIONS = 10;
const RATE_PER_SECOND = 50;
export const P99_TARGET_MS = 50;

export interface CheapRead {
  name: string;
  path: string;
  headers: Record<string, string>;
}

export interface AdminLoadInput {
  origin: string;
  cheapReads: CheapRead[];
  /** The orders list request the client sends for an admin (its first page when paged). */
  adminListPath: string;
  adminToken: string;
  durationSeconds: number;
  log: (line: string) => void;
}

const steady = (url: string, headers: Record<string, string>, duration: number): Promise<Result> =>
  autocannon({ url, headers, connections: CONNECTIONS, overallRate: RATE_PER_SECOND, duration, timeout: 30 });

function itemCount(answer: Answer): string {
  try {
    const parsed = JSON.parse(answer.body.toString()) as { data?: unknown[]; meta?: Record<string, unknown> };
    // Paged lists report the whole count in meta (its name may vary: total, total_count …).
    const totalKey = Object.keys(parsed.meta ?? {}).find((k) => /total/i.test(k));
    const total = totalKey ? parsed.meta?.[totalKey] : undefined;
    return `${parsed.data?.length ?? '?'} orders${total !== undefined ? ` of ${String(total)}` : ''}`;
  } catch {
    return 'not JSON';
  }
}

/** One admin reloading the list back to back (never two at once) until stopped. */
function adminLoop(url: string, headers: Record<string, string>) {
  const state = { running: true };
  const times: number[] = [];
  let failure: unknown = null;
  const done = (async () => {
    while (state.running) {
      try {
        // Not decoded: the bench's own thread stays free for the latency it measures.
        const answer = await get(url, headers, { decode: false });
        if (answer.status !== 200) throw new Error(`admin list answered ${answer.status}`);
        times.push(answer.ms);
      } catch (err) {
        failure = err;
        return;
      }
    }
  })();
  return {
    times,
    stop: async () => {
      state.running = false;
      await done;
      if (failure) throw failure;
    },
  };
}

export async function measureAdminLoad(input: AdminLoadInput): Promise<Row[]> {
  const { origin, durationSeconds, log } = input;
  const rows: Row[] = [];
  const adminHeaders = { ...BROWSER_ACCEPT, token: input.adminToken };
  log(`2. Cheap reads at ${RATE_PER_SECOND} req/s (${CONNECTIONS} connections, ${durationSeconds} s), alone and while an admin loads the orders list`);
  let admin: Answer;
  try {
    admin = await get(`${origin}${input.adminListPath}`, adminHeaders);
    if (admin.status !== 200) throw new Error(`GET ${input.adminListPath} as the admin answered ${admin.status}`);
  } catch (err) {
    log(`   admin list: bench error: ${describeError(err)}`);
    return input.cheapReads.map((c) => errorRow('Admin load', `${c.name} p99 under admin list`, `< ${P99_TARGET_MS} ms`, err));
  }
  const adminAnswer = `${itemCount(admin)}, ${kb(admin.rawBytes)}${admin.encoding ? ` (${admin.encoding} ${kb(admin.wireBytes)})` : ' uncompressed'}`;
  log(`   admin list: GET ${input.adminListPath} → ${adminAnswer}, first answer in ${ms(admin.ms)}`);

  for (const cheap of input.cheapReads) {
    const figure = `${cheap.name} p99 under admin list`;
    try {
      const url = `${origin}${cheap.path}`;
      // The server has finished whatever came before.
      await settle(origin);
      const baseline = await steady(url, cheap.headers, durationSeconds);
      const loop = adminLoop(`${origin}${input.adminListPath}`, adminHeaders);
      let loaded: Result;
      try {
        loaded = await steady(url, cheap.headers, durationSeconds);
      } finally {
        await loop.stop();
      }
      for (const [label, r] of [['alone', baseline], ['under load', loaded]] as const) {
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`${cheap.name} ${label}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
      }
      const adminMean = loop.times.length ? loop.times.reduce((a, b) => a + b, 0) / loop.times.length : NaN;
      log(
        `   ${cheap.name.padEnd(40)} alone p50 ${ms(baseline.latency.p50)} p99 ${ms(baseline.latency.p99)} | with admin list p50 ${ms(loaded.latency.p50)} p99 ${ms(loaded.latency.p99)} max ${ms(loaded.latency.max)} (${loop.times.length} admin lists, mean ${ms(adminMean)})`,
      );
      rows.push({
        area: 'Admin load',
        figure,
        value: `${ms(loaded.latency.p99)} (alone ${ms(baseline.latency.p99)}; admin list ${adminAnswer}, ${ms(adminMean)} each)`,
        target: `< ${P99_TARGET_MS} ms`,
        result: verdict(loaded.latency.p99 < P99_TARGET_MS),
      });
    } catch (err) {
      log(`   ${cheap.name}: bench error: ${describeError(err)}`);
      rows.push(errorRow('Admin load', figure, `< ${P99_TARGET_MS} ms`, err));
    }
  }
  return rows;
}
