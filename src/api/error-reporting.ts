import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { reportError, reportNowhere, reportTo } from './error-reports.ts';
import type { LoadedReporter } from './loaded-reporter.ts';
import { useSession } from './session.ts';

export type { LoadedReporter };

/**
 * The app's errors that reach someone (docs/accounts.md §8: "the error is also reported to an
 * error-reporting service"): crashes of a screen, unhandled errors and rejections, failed calls
 * the lab answered with an error. Reporting is on only when the server names a service
 * (SENTRY_DSN); only then is the reporting code (the Sentry SDK) downloaded at all. The page
 * starts it here; where each error goes is error-reports.ts, which the upload worker loads too.
 */

/** What the server tells the app before sign-in (GET /api/v2/client_config). */
export type ClientConfig = AnswerOf<Contract['GET /client_config']>;

export type ReporterLoader = (opts: { dsn: string; environment: string; release: string }) => Promise<LoadedReporter>;

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
    reportNowhere();
    return;
  }
  if (!config.error_reporting) {
    reportNowhere();
    return;
  }
  try {
    const reporter = await (opts.load ?? loadSentry)({ ...config.error_reporting, release: opts.release });
    reportTo(reporter, () => useSession.getState().session?.guid || null);
  } catch (err) {
    // The chunk could not be loaded (offline just now): the app works on without reporting.
    console.warn('error reporting could not start', err);
    reportNowhere();
  }
}
