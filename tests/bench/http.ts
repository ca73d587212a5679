/** Plain HTTP for the bench: exact wire bytes (nothing decoded on the way), sign-in, the session. */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { SessionAnswer } from '../../src/contract/session.ts';

// Far longer than any answer should take, even the unpaged 10,000-order list on a loaded machine.
const ANSWER_TIMEOUT_MS = 60_000;

/** What a browser sends: the server may compress as it would for a real user. */
export const BROWSER_ACCEPT = { 'accept-encoding': 'gzip, br' } as const;

export interface Answer {
  status: number;
  /** Body bytes as they crossed the wire (compressed if the server compressed). */
  wireBytes: number;
  /** Body bytes once decoded. */
  rawBytes: number;
  encoding: string | null;
  body: Buffer;
  ms: number;
}

/**
 * A GET that counts the body as sent, then decodes it (unless told not to: body is then the wire
 * bytes). `fresh` opens a connection of its own instead of reusing a kept-alive one.
 */
export function get(url: string, headers: Record<string, string>, opts: { decode?: boolean; fresh?: boolean } = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const options = opts.fresh ? { headers: { ...headers, connection: 'close' }, agent: false } : { headers };
    const req = request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'] ?? null;
        try {
          const body = opts.decode === false ? wire : decode(wire, encoding);
          resolve({ status: res.statusCode ?? 0, wireBytes: wire.length, rawBytes: body.length, encoding, body, ms: performance.now() - started });
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('error', reject);
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error(`no answer from ${url} within ${ANSWER_TIMEOUT_MS / 1000} s`)));
    req.end();
  });
}

function decode(wire: Buffer, encoding: string | null): Buffer {
  switch (encoding) {
    case null:
    case 'identity':
      return wire;
    case 'gzip':
      return gunzipSync(wire);
    case 'br':
      return brotliDecompressSync(wire);
    case 'deflate':
      return inflateSync(wire);
    default:
      throw new Error(`unexpected content-encoding ${encoding}`);
  }
}

// The server counts as idle when the status call (one query through the database's queue) answers
// this fast twice in a row on new connections; its own p50 is a few ms even on two busy cores.
const IDLE_ANSWER_MS = 30;
// Longer than any backlog the bench leaves behind; past it the bench goes on and says so.
const SETTLE_LIMIT_MS = 30_000;

/**
 * Waits until the server has worked off what a load run left behind. When autocannon stops, the
 * requests it sent are not all answered, some not even accepted yet: they wait in the listen
 * queue and the server still works on them after a single call on a kept-alive connection came
 * back. A call on a new connection queues behind them, and the status call also behind their
 * database queries. Returns how long it waited, or null if the limit was reached.
 */
export async function settle(origin: string): Promise<number | null> {
  const started = performance.now();
  let fastInARow = 0;
  while (fastInARow < 2) {
    if (performance.now() - started > SETTLE_LIMIT_MS) return null;
    const answer = await get(`${origin}/api/v2/status`, {}, { decode: false, fresh: true });
    fastInARow = answer.ms < IDLE_ANSWER_MS ? fastInARow + 1 : 0;
  }
  return performance.now() - started;
}

/** Signs in through the real login call, as the app does. */
export async function signIn(origin: string, email: string, password: string): Promise<SessionAnswer> {
  const res = await fetch(`${origin}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as SessionAnswer;
}

/**
 * The local-storage entries the app keeps for a session: the keys of SESSION_KEYS and what
 * saveSession() writes (src/api/session.ts; docs/accounts.md §3). That module needs a browser, so the
 * names are repeated here; the bench checks the app accepts them (no redirect to /login).
 */
export function sessionStorageEntries(answer: SessionAnswer): { name: string; value: string }[] {
  return [
    { name: 'token', value: answer.token },
    { name: 'identity-hash', value: answer.intercom_user_hash },
    { name: 'email', value: answer.email },
    { name: 'name', value: answer.name },
    { name: 'business-name', value: answer.business_name },
    { name: 'is-admin', value: String(answer.is_admin) },
    { name: 'user-guid', value: answer.guid },
  ];
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
