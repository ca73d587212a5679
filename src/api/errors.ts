import type { ErrorBody as WireErrorBody } from '../contract/error-body.ts';
import { reportError } from './error-reports.ts';

/**
 * The error catalogue of both specs (docs/accounts.md §8, docs/orders.md §8), implemented once: every
 * screen turns a failed call into words through these functions.
 */
export const LOGGED_OUT_MESSAGE = 'You have been logged out!';
export const NO_RESPONSE_MESSAGE = 'Something went wrong:Please check your internet connection and try again.';
export const LOGIN_FAILED_MESSAGE =
  'There was a problem with your email or password. Please try again or click RESET below if you have forgotten your password.';
export const FORM_FAILED_MESSAGE = 'Oops! Something went wrong while submitting the form.';
// "Other failures" are cut to their first 20 words (docs/accounts.md §8).
const OTHER_FAILURE_WORDS = 20;

type WireError = WireErrorBody['error'];

/**
 * The server's error body (src/contract/error-body.ts, docs/api.md §2) as the page reads it: only
 * its status and class name are relied on, since a proxy in between may answer with less.
 */
export interface ErrorBody {
  error: Pick<WireError, 'status' | 'class_name'> & Partial<Omit<WireError, 'status' | 'class_name' | 'user_message'>> & { user_message?: Partial<WireError['user_message']> };
}

export type ApiErrorKind = 'server' | 'http' | 'network';

/** A failed call: with the server's error body, with only an HTTP status, or with no response. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | null;
  readonly className: string | null;
  readonly moreInfo: string[];

  constructor(kind: ApiErrorKind, message: string, opts: { status?: number; className?: string; moreInfo?: string[] } = {}) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = opts.status ?? null;
    this.className = opts.className ?? null;
    this.moreInfo = opts.moreInfo ?? [];
  }

  static fromBody(body: ErrorBody, httpStatus: number): ApiError {
    const e = body.error;
    const message = e.user_message?.message ?? e.developer_message ?? '';
    return new ApiError('server', message, { status: e.status ?? httpStatus, className: e.class_name, moreInfo: e.more_info ?? [] });
  }
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const e = (value as { error: unknown }).error;
  return typeof e === 'object' && e !== null && 'status' in e && 'class_name' in e;
}

export function truncateWords(text: string, words = OTHER_FAILURE_WORDS): string {
  const parts = text.trim().split(/\s+/);
  return parts.length > words ? `${parts.slice(0, words).join(' ')}...` : parts.join(' ');
}

/** The lines a toast shows for a failure. */
export function errorLines(err: unknown): string[] {
  if (err instanceof ApiError) {
    if (err.kind === 'server') {
      return [`ERROR CODE: ${err.status}`, `ERROR CLASS: ${err.className}`, `ERROR MESSAGE: ${err.message}`];
    }
    if (err.kind === 'http') return [`ERROR CODE: ${err.status}`];
    return [NO_RESPONSE_MESSAGE];
  }
  const message = err instanceof Error ? err.message : String(err);
  return [`Something went wrong: ${truncateWords(message)}`];
}

/** One line, for 'ERROR LOADING:' on full pages. */
export const errorText = (err: unknown): string => errorLines(err).join(' ');

/**
 * An error with a body: more_info lines are logged, not shown, and the error is also reported to
 * the error-reporting service (docs/accounts.md §8), when one is configured. A 401 is no fault: it
 * only means the session has ended.
 */
export function logErrorDetails(err: unknown): void {
  if (err instanceof ApiError && err.moreInfo.length) console.info('more_info:', ...err.moreInfo);
  if (err instanceof ApiError && err.kind === 'server' && err.status !== 401) {
    reportError(err, { status: String(err.status), class_name: err.className ?? '' });
  }
}
