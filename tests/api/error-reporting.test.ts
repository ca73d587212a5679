import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, createTestApp, createUser, signIn, type TestApp } from './helper.ts';

/** A stand-in for Sentry on loopback: keeps every envelope posted to /api/<project>/envelope/. */
async function startReceiver(): Promise<{ server: Server; port: number; envelopes: string[] }> {
  const envelopes: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (/^\/api\/\d+\/envelope\/?/.test(req.url ?? '')) {
        envelopes.push((req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8'));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, envelopes };
}

/** The events in the envelopes: each envelope is a header line, then item header and payload lines. */
const events = (envelopes: string[]) =>
  envelopes.flatMap((e) => {
    const lines = e.split('\n').filter(Boolean);
    const out: Record<string, unknown>[] = [];
    for (let i = 1; i + 1 < lines.length; i += 2) {
      if ((JSON.parse(lines[i] ?? '{}') as { type?: string }).type === 'event') out.push(JSON.parse(lines[i + 1] ?? '{}') as Record<string, unknown>);
    }
    return out;
  });

const waitFor = (check: () => boolean, what: string) =>
  vi.waitFor(
    () => {
      if (!check()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: 10_000, interval: 100 },
  );

describe('server errors reach the error-reporting service when SENTRY_DSN is set', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let t: TestApp;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({ SENTRY_DSN: `http://publickey@127.0.0.1:${receiver.port}/42` }, { jobs: true });
    // A route that crashes the way a careless bug does: with personal data in its message.
    t.app.post('/api/v2/test_crash', { config: { public: true } }, async (request) => {
      const body = request.body as { password: string };
      throw new Error(`could not save ${request.actor?.user.email} (token ${String(request.headers.token)}, password ${body.password})`);
    });
  });
  afterAll(async () => {
    await t.close();
    receiver.server.close();
  });

  it('a crash answers 500 with the error body and is reported with the user guid, and nothing personal', async () => {
    const { user, password } = await createUser(t.db);
    const token = await signIn(t.app, user.email, password);
    // Refusals are the caller's business, not faults: not reported.
    expect((await t.app.inject({ method: 'GET', url: api('/no_such_call'), headers: { token } })).statusCode).toBe(404);

    const res = await t.app.inject({ method: 'POST', url: api('/test_crash'), headers: { token }, payload: { password: 'hunter2-secret' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ error: { status: 500, class_name: 'InternalServerError' } });

    await waitFor(() => events(receiver.envelopes).length > 0, 'the crash report');
    const [event, ...more] = events(receiver.envelopes);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      user: { id: user.guid },
      tags: { route: 'POST /api/v2/test_crash' },
      exception: { values: [expect.objectContaining({ type: 'Error', value: expect.stringContaining('could not save [email]') })] },
    });
    const raw = receiver.envelopes.join('\n');
    for (const secret of [user.email, token, password, 'hunter2-secret']) expect(raw).not.toContain(secret);
    // No request data at all: no body, no headers, no address.
    expect(event).not.toHaveProperty('request');
    expect(JSON.stringify(event?.user)).toBe(JSON.stringify({ id: user.guid }));
  });

  it('a failed background job is reported with its queue', async () => {
    receiver.envelopes.length = 0;
    await t.jobs.work('test-failing-job', async () => {
      throw new Error('the vendor refused the order of someone@example.com');
    });
    await t.jobs.send('test-failing-job', {});
    await waitFor(() => events(receiver.envelopes).length > 0, 'the job failure report');
    const [event] = events(receiver.envelopes);
    expect(event).toMatchObject({ tags: { queue: 'test-failing-job' } });
    expect(receiver.envelopes.join('\n')).not.toContain('someone@example.com');
  });
});

describe('without SENTRY_DSN', () => {
  it('the app is told error reporting is off, and the page may connect to its own origin and Stripe only', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: api('/client_config') });
      expect(res.json()).toEqual({ error_reporting: null });
      expect(res.headers['cache-control']).toBe('no-store');
      const csp = String((await t.app.inject({ method: 'GET', url: api('/status') })).headers['content-security-policy']);
      expect(csp).toContain("connect-src 'self' https://api.stripe.com;");
    } finally {
      await t.close();
    }
  });
});

describe('with SENTRY_DSN', () => {
  it("the app is told where to report, and the page may connect to that host only", async () => {
    const t = await createTestApp({ SENTRY_DSN: 'https://abc123@o77.ingest.example.io/4501', SENTRY_ENVIRONMENT: 'staging' });
    try {
      const res = await t.app.inject({ method: 'GET', url: api('/client_config') });
      expect(res.json()).toEqual({ error_reporting: { dsn: 'https://abc123@o77.ingest.example.io/4501', environment: 'staging' } });
      const csp = String((await t.app.inject({ method: 'GET', url: api('/status') })).headers['content-security-policy']);
      expect(csp).toContain("connect-src 'self' https://api.stripe.com https://o77.ingest.example.io;");
    } finally {
      await t.close();
    }
    // The Sentry SDK is loaded only with a DSN (error-reporter.ts): its first import is this test's.
  }, 60_000);
});
