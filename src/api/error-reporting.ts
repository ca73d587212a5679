import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import type { LoadedReporter } from './loaded-reporter.ts';
import { useSession } from './session.ts';

export type { LoadedReporter };

/**
 * The app's errors that reach someone (docs/accounts.md §8: "the error is also reported to an
 * error-reporting service"): crashes of a screen, unhandled errors and rejections, failed calls
 * the lab answered with an error. Reporting is on only when the server names a service
 * (SENTRY_DSN); only then is the reporting code (the Sentry SDK) downloaded at all.
 */

/** What the server tells the app before sign-in (GET /api/v2/client_config). */
export type ClientConfig = AnswerOf<Contract['GET /client_config']>;


export type ReporterLoader = (opts: { dsn: string; environment: string; release: string }) => Promise<LoadedReporter>;

// Errors from before the answer about reporting arrives (a crash while the app starts) are kept
// and sent once it is on; a few are enough to see what happened.
const MAX_EARLY_ERRORS = 10;

type Forward = (err: unknown, tags: Record<string, string>) => void;
type State =
  | { kind: 'unknown'; early: { err: unknown; tags: Record<string, string> }[] }
  | { kind: 'off' }
  | { kind: 'on'; reporter: LoadedReporter }
  | { kind: 'forward'; to: Forward };

let state: State = { kind: 'unknown', early: [] };
// One report per error object, however many places see it (the call, the screen, the handler).
const reported = new WeakSet<object>();

/** Reports an error when reporting is on (or keeps it until that is known); otherwise nothing. */
export function reportError(err: unknown, tags: Record<string, string> = {}): void {
  if (typeof err === 'object' && err !== null) {
    if (reported.has(err)) return;
    reported.add(err);
  }
  if (state.kind === 'on') state.reporter.capture(err, tags, useSession.getState().session?.guid || null);
  else if (state.kind === 'forward') state.to(err, tags);
  else if (state.kind === 'unknown' && state.early.length < MAX_EARLY_ERRORS) state.early.push({ err, tags });
}

/**
 * In a worker: errors go to the page, which reports them as its own (the worker has no reporter,
 * no session store and no answer about reporting).
 */
export function forwardErrors(to: Forward): void {
  state = { kind: 'forward', to };
}

/** Loads the Sentry SDK in its own chunk: only ever called with a DSN. */
const loadSentry: ReporterLoader = async (opts) => (await import('./sentry-reporter.ts')).createSentryReporter(opts);

/**
 * At start: catches unhandled errors and rejections, asks the server whether errors are
 * reported, and loads the reporter only if they are. Without an answer (offline) nothing is
 * loaded; the next start asks again.
 */
export async function startErrorReporting(opts: {
  fetchConfig: () => Promise<ClientConfig>;
  release: string;
  load?: ReporterLoader;
  target?: Pick<Window, 'addEventListener'>;
}): Promise<void> {
  const target = opts.target ?? window;
  target.addEventListener('error', (event: Event) => {
    const e = event as ErrorEvent;
    reportError(e.error ?? new Error(e.message || 'Unknown error'), { source: 'window.onerror' });
  });
  target.addEventListener('unhandledrejection', (event: Event) => {
    reportError((event as PromiseRejectionEvent).reason, { source: 'unhandledrejection' });
  });

  let config: ClientConfig;
  try {
    config = await opts.fetchConfig();
  } catch {
    state = { kind: 'off' };
    return;
  }
  const early = state.kind === 'unknown' ? state.early : [];
  if (!config.error_reporting) {
    state = { kind: 'off' };
    return;
  }
  try {
    const reporter = await (opts.load ?? loadSentry)({ ...config.error_reporting, release: opts.release });
    state = { kind: 'on', reporter };
    for (const { err, tags } of early) reporter.capture(err, tags, useSession.getState().session?.guid || null);
  } catch (err) {
    // The chunk could not be loaded (offline just now): the app works on without reporting.
    console.warn('error reporting could not start', err);
    state = { kind: 'off' };
  }
}

/** For tests: back to "not yet known". */
export function resetErrorReporting(): void {
  state = { kind: 'unknown', early: [] };
}
