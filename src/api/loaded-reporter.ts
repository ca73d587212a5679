/**
 * A loaded reporter: sends one error with a few tags, for the signed-in user's guid only. Its own
 * module, so the lazily loaded Sentry reporter (sentry-reporter.ts) and error-reporting.ts, which
 * loads it, both name it without importing each other.
 */
export interface LoadedReporter {
  capture(err: unknown, tags: Record<string, string>, userGuid: string | null): void;
}
