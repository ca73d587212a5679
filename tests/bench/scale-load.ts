/**
 * The load of the scale part: many photographers using the app at once against one or two API
 * processes. Each connection (autocannon back to back, scale-open-loop.ts at a rate) plays
 * photographer visits one after another; a visit takes a free slot (a photographer's session and
 * one of their open orders) for its whole sequence, so no two connections write to the same
 * order at once, and every write is the photographer's to their own order. The sequence is what
 * the app sends, mostly reads: list page, next page, a search, the order with its photos, its
 * cart, a past order, a presigned upload address, a new line item, a quantity change, and the
 * list again.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { API, API_PREFIX, routePath } from '../../src/domain/paths.ts';
import { MULTIPART_THRESHOLD, MiB, usesMultipart } from '../../src/upload/shared/multipart-plan.ts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BROWSER_ACCEPT } from './http.ts';
import { answerKey, captureAnswer, type CapturedAnswers } from './floor-answers.ts';
import type { LoadSlot } from './scale-seed.ts';

export interface SignedSlot extends LoadSlot {
  token: string;
}

export interface Step {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: (slot: SignedSlot, ctx: VisitContext) => string;
  body?: (slot: SignedSlot, printSizeGuid: string) => unknown;
  /** Keeps what a later step of the visit needs from this answer. */
  read?: (body: string, ctx: VisitContext) => void;
}

export interface VisitContext {
  slot?: number;
  cursor?: string | null;
  sentAt?: number;
}

// Photo sizes the presigned addresses are asked for, in turn: a camera JPEG over the multipart
// threshold (parts), and an edited export under it (one PUT), as a photographer's folder mixes.
const PHOTO_SIZES = [MULTIPART_THRESHOLD + 4 * MiB, 8 * MiB];
// Words a photographer types into the orders search (seed-orders.ts names orders by kind).
const SEARCHES = ['wedding', 'family', 'portrait', 'prints'];

const api = (path: string) => `${API_PREFIX}${path}`;
let turn = 0;
const next = <T>(list: T[]): T => list[turn++ % list.length] as T;

export const STEPS: Step[] = [
  { name: 'GET lab_orders (first page)', method: 'GET', path: () => api(API.labOrders), read: readCursor },
  { name: 'GET lab_orders (next page)', method: 'GET', path: (_, ctx) => api(ctx.cursor ? `${API.labOrders}?cursor=${encodeURIComponent(ctx.cursor)}` : API.labOrders) },
  { name: 'GET lab_orders?search=', method: 'GET', path: () => api(`${API.labOrders}?search=${next(SEARCHES)}`) },
  { name: 'GET lab_orders/:guid (open, with photos)', method: 'GET', path: (s) => api(routePath(API.labOrder, { guid: s.orderGuid })) },
  { name: 'GET retrieve_full_order (cart)', method: 'GET', path: (s) => api(routePath(API.retrieveFullOrder, { guid: s.orderGuid })) },
  { name: 'GET lab_orders/:guid (past order)', method: 'GET', path: (s) => api(routePath(API.labOrder, { guid: s.pastOrderGuid })) },
  {
    name: 'POST create_presigned_url',
    method: 'POST',
    path: (s) => api(routePath(API.createPresignedUrl, { guid: s.orderGuid })),
    body: (s) => {
      const size = next(PHOTO_SIZES);
      const name = `IMG_${randomBytes(3).toString('hex')}.jpg`;
      // A checksum of its own: a new photo, never "already in the order".
      const checksum = randomBytes(32).toString('hex');
      return { lab_order_guid: s.orderGuid, photo_file_name: name, content_type: 'image/jpeg', size, checksum, ...(usesMultipart(size) ? { multipart: true } : {}) };
    },
  },
  {
    name: 'POST line_items (one new)',
    method: 'POST',
    path: (s) => api(routePath(API.orderLineItems, { guid: s.orderGuid })),
    body: (s, printSizeGuid) => ({
      line_items: [
        {
          guid: randomUUID(),
          quantity: 1,
          print_size: printSizeGuid,
          finishing_service: null,
          print_border: 'none',
          source_photograph_guid: s.photoGuid,
          photograph: { source_photograph_guid: s.photoGuid, crop_x: 0, crop_y: 0, crop_w: 100, crop_h: 100 },
        },
      ],
    }),
  },
  { name: 'PATCH update_quantity', method: 'PATCH', path: (s) => api(routePath(API.updateQuantity, { guid: s.lineItemGuid })), body: () => ({ qty: 1 + (turn++ % 5) }) },
  { name: 'GET lab_orders (back to the list)', method: 'GET', path: () => api(API.labOrders) },
];

function readCursor(body: string, ctx: VisitContext): void {
  try {
    ctx.cursor = (JSON.parse(body) as { meta?: { next_cursor?: string | null } }).meta?.next_cursor ?? null;
  } catch {
    ctx.cursor = null;
  }
}

export const READS_PER_VISIT = STEPS.filter((s) => s.method === 'GET').length;
export const WRITES_PER_VISIT = STEPS.length - READS_PER_VISIT;

/** Per step of the visit: latencies measured at the bench (request built → answer read). */
export interface StepTimes {
  name: string;
  ms: number[];
  failed: number;
}

/** The figures of a run, whichever client made it (autocannon back to back, the open loop at a rate). */
export interface LoadSummary {
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  requests: { sent: number };
}

export interface LoadRun {
  result: LoadSummary;
  /** The open loop's answers at or over its p99 (when above 50 ms): how many, and in which seconds of the run they fell due. */
  tail?: { over: number; count: number; seconds: number[] };
  /** Answers a second, over the time until the server answered the last request sent. */
  rate: number;
  steps: StepTimes[];
}

/** Slots handed out to visits; a visit whose connection died leaves its slot, taken back when all are busy. */
export function slotPool(count: number) {
  const free = Array.from({ length: count }, (_, i) => i);
  const busySince = new Map<number, number>();
  return {
    take(): number {
      const slot = free.shift() ?? [...busySince.entries()].sort((a, b) => a[1] - b[1])[0]?.[0] ?? 0;
      busySince.set(slot, performance.now());
      return slot;
    },
    give(slot: number | undefined): void {
      if (slot === undefined || !busySince.delete(slot)) return;
      free.push(slot);
    },
  };
}

/** The sequence as autocannon requests, sharing one slot pool and per-step timings. */
function visitRequests(slots: SignedSlot[], printSizeGuid: string, steps: StepTimes[]) {
  const pool = slotPool(slots.length);
  return STEPS.map((step, i) => ({
    method: step.method,
    setupRequest: (req: Record<string, unknown>, ctx: VisitContext) => {
      if (i === 0) ctx.slot = pool.take();
      const slot = slots[ctx.slot ?? 0] as SignedSlot;
      const headers: Record<string, string> = { ...BROWSER_ACCEPT, accept: 'application/json', token: slot.token };
      let body: string | undefined;
      if (step.body) {
        body = JSON.stringify(step.body(slot, printSizeGuid));
        headers['content-type'] = 'application/json';
        // The app sends one with every change (docs/api.md): a fresh one, as for a new change.
        headers['idempotency-key'] = randomUUID();
      }
      ctx.sentAt = performance.now();
      return { ...req, method: step.method, path: step.path(slot, ctx), headers, ...(body ? { body } : {}) };
    },
    onResponse: (status: number, body: string, ctx: VisitContext) => {
      const times = steps[i] as StepTimes;
      if (ctx.sentAt !== undefined) times.ms.push(performance.now() - ctx.sentAt);
      if (status >= 300) times.failed += 1;
      else step.read?.(body, ctx);
      if (i === STEPS.length - 1) pool.give(ctx.slot);
    },
  }));
}

/**
 * One load run: `connections` at once for `duration` s over the given origins (one or two
 * processes), back to back (each sends its next call as soon as its answer came). A run at a
 * rate is scale-open-loop.ts's: autocannon's own rate limit sends every connection's call in the
 * same instant once a second.
 */
export async function runLoad(opts: { origins: string[]; slots: SignedSlot[]; printSizeGuid: string; connections: number; duration: number }): Promise<LoadRun> {
  const steps: StepTimes[] = STEPS.map((s) => ({ name: s.name, ms: [], failed: 0 }));
  const started = performance.now();
  const result = await autocannon({
    url: opts.origins,
    connections: opts.connections,
    duration: opts.duration,
    // A request waiting longer than this counts as an error (far beyond the 250 ms p99 target).
    timeout: 30,
    requests: visitRequests(opts.slots, opts.printSizeGuid, steps),
  });
  return { result, rate: result.requests.sent / ((performance.now() - started) / 1000), steps };
}

/** One visit of one slot, call by call with fetch: every step must answer 2xx before a load starts. Answers the mean answer size. */
export async function probeVisit(origin: string, slot: SignedSlot, printSizeGuid: string): Promise<number> {
  const ctx: VisitContext = {};
  let bytes = 0;
  for (const step of STEPS) {
    const body = step.body?.(slot, printSizeGuid);
    const res = await fetch(`${origin}${step.path(slot, ctx)}`, {
      method: step.method,
      headers: { accept: 'application/json', token: slot.token, ...(body ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}) },
      body: body ? JSON.stringify(body) : null,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${step.name} answered ${res.status}: ${text.slice(0, 300)}`);
    step.read?.(text, ctx);
    bytes += Buffer.byteLength(text);
  }
  return Math.round(bytes / STEPS.length);
}

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/**
 * One visit of one slot, each answer kept as it crossed the wire for the outside floor
 * (floor-answers.ts): the same mix, answered with the same bytes by a plain Fastify process.
 */
export async function captureVisit(origin: string, slot: SignedSlot, printSizeGuid: string): Promise<CapturedAnswers> {
  const ctx: VisitContext = {};
  const answers: CapturedAnswers = {};
  for (const step of STEPS) {
    const body = step.body ? JSON.stringify(step.body(slot, printSizeGuid)) : undefined;
    const headers: Record<string, string> = { ...BROWSER_ACCEPT, accept: 'application/json', token: slot.token, ...(body ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}) };
    const path = step.path(slot, ctx);
    const answer = await captureAnswer(origin, step.method, path, headers, body);
    const wire = Buffer.from(answer.body, 'base64');
    if (answer.status >= 300) throw new Error(`${step.name} answered ${answer.status} while captured for the floor`);
    const encoding = answer.headers.find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
    step.read?.((encoding === 'br' ? brotliDecompressSync(wire) : encoding === 'gzip' ? gunzipSync(wire) : wire).toString('utf8'), ctx);
    answers[answerKey(step.method, path)] = answer;
  }
  return answers;
}
