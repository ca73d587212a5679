import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startErrorReporting, type LoadedReporter, type ReporterLoader } from '../../src/api/error-reporting.ts';
import { forwardErrors, reportError, resetErrorReporting } from '../../src/api/error-reports.ts';
import { clearSession, saveSession } from '../../src/api/session.ts';
import { scrubEvent, scrubText } from '../../src/domain/error-report-privacy.ts';

const answer = { token: 'tok-1', intercom_user_hash: 'hash', email: 'ann@example.com', name: 'Ann', business_name: 'Studio', is_admin: false, guid: 'u-1' };

/** A page's window, as far as error reporting listens to it. */
const fakeWindow = () => {
  const target = new EventTarget();
  return { target, addEventListener: target.addEventListener.bind(target) };
};

let sent: { err: unknown; tags: Record<string, string>; user: string | null }[];
const reporter: LoadedReporter = { capture: (err, tags, user) => sent.push({ err, tags, user }) };

beforeEach(() => {
  sent = [];
  resetErrorReporting();
  clearSession();
});
afterEach(() => resetErrorReporting());

describe('error reporting in the app', () => {
  it('without a DSN the reporter is never loaded and errors stay in the page', async () => {
    const load = vi.fn<ReporterLoader>(async () => reporter);
    await startErrorReporting({ fetchConfig: async () => ({ error_reporting: null }), release: 'v1', load, target: fakeWindow() });
    reportError(new Error('boom'));
    expect(load).not.toHaveBeenCalled();
    expect(sent).toEqual([]);
  });

  it('offline at start (no answer about reporting): nothing is loaded', async () => {
    const load = vi.fn<ReporterLoader>(async () => reporter);
    await startErrorReporting({ fetchConfig: () => Promise.reject(new Error('offline')), release: 'v1', load, target: fakeWindow() });
    expect(load).not.toHaveBeenCalled();
  });

  it('with a DSN: errors from before the answer are sent once it is on, each error once, with the signed-in guid', async () => {
    saveSession(answer);
    const early = new Error('during start');
    reportError(early, { source: 'screen' });
    const load = vi.fn<ReporterLoader>(async () => reporter);
    const win = fakeWindow();
    await startErrorReporting({ fetchConfig: async () => ({ error_reporting: { dsn: 'https://k@sentry.example/1', environment: 'production' } }), release: 'v1', load, target: win });
    expect(load).toHaveBeenCalledWith({ dsn: 'https://k@sentry.example/1', environment: 'production', release: 'v1' });
    expect(sent).toEqual([{ err: early, tags: { source: 'screen' }, user: 'u-1' }]);

    reportError(early, { source: 'again' });
    expect(sent).toHaveLength(1);

    const rejection = new Error('unhandled');
    const event = Object.assign(new Event('unhandledrejection'), { reason: rejection });
    win.target.dispatchEvent(event);
    expect(sent.at(-1)).toEqual({ err: rejection, tags: { source: 'unhandledrejection' }, user: 'u-1' });
  });
});

describe('error reporting in the upload worker', () => {
  it('forwards each error once to the page, which reports it as its own', () => {
    const forwarded: [unknown, Record<string, string>][] = [];
    forwardErrors((err, tags) => forwarded.push([err, tags]));
    const fault = new Error('HTTP 502');
    reportError(fault, { call: 'POST /lab_orders/x/complete_upload', status: '502' });
    reportError(fault, { call: 'again' });
    expect(forwarded).toEqual([[fault, { call: 'POST /lab_orders/x/complete_upload', status: '502' }]]);
  });
});

describe('what a report may carry', () => {
  it('blanks emails, tokens, secret pairs and secrets named in prose', () => {
    expect(scrubText('no account for ann@example.com')).toBe('no account for [email]');
    expect(scrubText('GET /x?token=abc&page=2')).toBe('GET /x?token=[redacted]&page=2');
    expect(scrubText('password hunter2, then')).toBe('password [redacted], then');
    expect(scrubText(`session ${'a'.repeat(43)} expired`)).toBe('session [redacted] expired');
    expect(scrubText('status code 500 on /lab_orders')).toBe('status code 500 on /lab_orders');
  });

  it('keeps only the user guid, the page path and the browser name of the request', () => {
    const event = scrubEvent({
      user: { id: 'u-1', email: 'ann@example.com', ip_address: '10.0.0.1' },
      request: { url: 'https://lab.example/reset-password?token=abc', headers: { 'User-Agent': 'Chromium', Cookie: 'x' }, data: { password: 'p' } },
      extra: { body: { email: 'ann@example.com', password: 'p', note: 'ok' } },
      contexts: { trace: { trace_id: 'f'.repeat(32) } },
    });
    expect(event).toEqual({
      user: { id: 'u-1' },
      request: { url: 'https://lab.example/reset-password', headers: { 'User-Agent': 'Chromium' } },
      extra: { body: { email: '[redacted]', password: '[redacted]', note: 'ok' } },
      contexts: { trace: { trace_id: 'f'.repeat(32) } },
    });
  });
});
