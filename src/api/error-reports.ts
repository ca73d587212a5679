import type { LoadedReporter } from './loaded-reporter.ts';

/**
 * Where the app's errors go, in the page and in the upload worker alike: to the reporter once the
 * page turned it on (error-reporting.ts startErrorReporting), to the page from a worker, or kept
 * until that is known. No page globals here, so the worker can load it.
 */

// Errors from before the answer about reporting arrives (a crash while the app starts) are kept
// and sent once it is on; a few are enough to see what happened.
const MAX_EARLY_ERRORS = 10;

type Forward = (err: unknown, tags: Record<string, string>) => void;
/** The signed-in user's guid, which each report carries; null before sign-in. */
type ReportedUser = () => string | null;
type State =
  | { kind: 'unknown'; early: { err: unknown; tags: Record<string, string> }[] }
  | { kind: 'off' }
  | { kind: 'on'; reporter: LoadedReporter; user: ReportedUser }
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
  if (state.kind === 'on') state.reporter.capture(err, tags, state.user());
  else if (state.kind === 'forward') state.to(err, tags);
  else if (state.kind === 'unknown' && state.early.length < MAX_EARLY_ERRORS) state.early.push({ err, tags });
}

/** Reporting is on: the errors kept so far go first, then each one as it comes. */
export function reportTo(reporter: LoadedReporter, user: ReportedUser): void {
  const early = state.kind === 'unknown' ? state.early : [];
  state = { kind: 'on', reporter, user };
  for (const { err, tags } of early) reporter.capture(err, tags, user());
}

/** Reporting is off (no service named, or no answer): errors are dropped. */
export function reportNowhere(): void {
  state = { kind: 'off' };
}

/**
 * In a worker: errors go to the page, which reports them as its own (the worker has no reporter,
 * no session store and no answer about reporting).
 */
export function forwardErrors(to: Forward): void {
  state = { kind: 'forward', to };
}

/** For tests: back to "not yet known". */
export function resetErrorReporting(): void {
  state = { kind: 'unknown', early: [] };
}
