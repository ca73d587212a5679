/**
 * The scale part's load at a lab's real rate: an open loop. Each of `connections` photographer
 * apps (one kept-alive connection each, as a browser tab keeps) makes its calls at random moments,
 * a call every connections ÷ rate seconds on average (Poisson arrivals: the apps do not know of
 * each other, so some calls bunch up as they would in a lab). Each app plays the visit of
 * scale-load.ts call after call. A call falls due at its moment whether or not the app's previous
 * answer came; when it had to wait for that answer, the wait counts in its latency (measured from
 * the moment it fell due, not from when it could be sent: no coordinated omission).
 *
 * Why not autocannon's own rate (`overallRate`): it lowers the connections to the rate (100, not
 * 200) and lets every connection send one call a second from timers started together, so the
 * server got all 100 calls of a second within the same few milliseconds, and every connection at
 * the same step of its visit (100 new line items at once, then 100 quantity changes at once):
 * bursts of one kind, not a rate.
 */
import { request, Agent } from 'node:http';
import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BROWSER_ACCEPT } from './http.ts';
import { seededRandom } from '../../server/cli/seeded-random.ts';
import { slotPool, STEPS, type LoadRun, type SignedSlot, type StepTimes, type VisitContext } from './scale-load.ts';

// As autocannon's timeout in the back-to-back runs: an answer later than this counts as an error.
const TIMEOUT_MS = 30_000;
// Each app's random numbers are seeded (mulberry32, seed SEED + its number), so every run offers
// the same moments.
const SEED = 14;

interface Answer {
  status: number;
  body: string;
}

function send(agent: Agent, origin: string, method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        // Decoded as the browser does: the visit reads the list's cursor from the answer.
        const raw = encoding === 'br' ? brotliDecompressSync(wire) : encoding === 'gzip' ? gunzipSync(wire) : wire;
        resolve({ status: res.statusCode ?? 0, body: raw.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.setTimeout(TIMEOUT_MS, () => req.destroy(Object.assign(new Error('time-out'), { timeout: true })));
    req.end(body);
  });
}

export async function runOpenLoop(opts: { origins: string[]; slots: SignedSlot[]; printSizeGuid: string; connections: number; duration: number; rate: number }): Promise<LoadRun> {
  const steps: StepTimes[] = STEPS.map((s) => ({ name: s.name, ms: [], failed: 0 }));
  const all: number[] = [];
  // When each answer fell due (s into the run) and how long it took: where in the run the tail is.
  const when: [number, number][] = [];
  const pool = slotPool(opts.slots.length);
  const meanGapMs = (opts.connections / opts.rate) * 1000;
  const counts = { sent: 0, non2xx: 0, errors: 0, timeouts: 0 };
  const started = performance.now();
  const end = started + opts.duration * 1000;
  let lastAnswer = started;

  const app = async (n: number) => {
    // Apps alternate between the processes, as autocannon's connections do.
    const origin = opts.origins[n % opts.origins.length] as string;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ctx: VisitContext = {};
    const random = seededRandom(SEED + n);
    let due = started - Math.log(1 - random()) * meanGapMs;
    try {
      for (let i = 0; due < end; i = (i + 1) % STEPS.length) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const step = STEPS[i] as (typeof STEPS)[number];
        if (i === 0) ctx.slot = pool.take();
        const slot = opts.slots[ctx.slot ?? 0] as SignedSlot;
        const headers: Record<string, string> = { ...BROWSER_ACCEPT, accept: 'application/json', token: slot.token };
        const body = step.body ? JSON.stringify(step.body(slot, opts.printSizeGuid)) : undefined;
        if (body) Object.assign(headers, { 'content-type': 'application/json', 'idempotency-key': randomUUID() });
        counts.sent += 1;
        try {
          const answer = await send(agent, origin, step.method, step.path(slot, ctx), headers, body);
          const ms = performance.now() - due;
          (steps[i] as StepTimes).ms.push(ms);
          all.push(ms);
          when.push([(due - started) / 1000, ms]);
          if (answer.status >= 300) {
            counts.non2xx += 1;
            (steps[i] as StepTimes).failed += 1;
          } else step.read?.(answer.body, ctx);
        } catch (err) {
          counts.errors += 1;
          if ((err as { timeout?: boolean }).timeout) counts.timeouts += 1;
          (steps[i] as StepTimes).failed += 1;
        }
        lastAnswer = performance.now();
        if (i === STEPS.length - 1) pool.give(ctx.slot);
        due += -Math.log(1 - random()) * meanGapMs;
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, (_, n) => app(n)));
  const sorted = all.sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  const p99 = at(0.99);
  const slow = when.filter(([, ms]) => ms >= p99 && ms > 50);
  const seconds = [...new Set(slow.map(([t]) => Math.floor(t)))].sort((a, b) => a - b);
  return {
    tail: { over: p99, count: slow.length, seconds },
    result: { latency: { p50: at(0.5), p99 }, non2xx: counts.non2xx, errors: counts.errors, timeouts: counts.timeouts, requests: { sent: counts.sent } },
    rate: counts.sent / ((lastAnswer - started) / 1000),
    steps,
  };
}
