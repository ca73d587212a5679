import { REPORT_DATA_COLLECTION, scrubEvent } from '../../../src/domain/error-report-privacy.ts';

/** Where a server error happened: the request or the job, and whose it was (the guid only). */
export interface ErrorContext {
  userGuid?: string;
  requestId?: string;
  method?: string;
  route?: string;
  queue?: string;
}

/**
 * Server errors that reach someone (docs/architecture.md §2): crashes and 5xx answers, failed jobs. With
 * SENTRY_DSN they go to Sentry; without it they are only logged, by their callers, as always.
 */
export interface ErrorReporter {
  readonly enabled: boolean;
  capture(err: unknown, context?: ErrorContext): void;
  /** Waits (up to a bound) until reports are sent: before the process exits. */
  flush(): Promise<void>;
}

// How long a shutdown or a crash waits for the last reports to leave.
const FLUSH_TIMEOUT_MS = 2_000;

export const noErrorReporter: ErrorReporter = { enabled: false, capture: () => {}, flush: async () => {} };

/**
 * Sentry through its own client and scope, not the SDK's global init: nothing is instrumented or
 * patched (no tracing, no automatic request capture), and nothing leaves but what is captured
 * here, scrubbed by the shared privacy rules (src/domain/error-report-privacy.ts). The SDK is
 * loaded only with a DSN: it is the largest part of the server's start.
 */
export async function createErrorReporter(opts: { dsn: string | undefined; release: string; environment?: string }): Promise<ErrorReporter> {
  if (!opts.dsn) return noErrorReporter;
  const { NodeClient, Scope, defaultStackParser, makeNodeTransport } = await import('@sentry/node');
  const client = new NodeClient({
    dsn: opts.dsn,
    release: opts.release,
    environment: opts.environment ?? 'production',
    transport: makeNodeTransport,
    stackParser: defaultStackParser,
    integrations: [],
    dataCollection: REPORT_DATA_COLLECTION,
    sendClientReports: false,
    enableRuntimeChannelInjection: false,
    beforeSend: (event) => scrubEvent(event),
  });
  const root = new Scope();
  root.setClient(client);
  client.init();
  return {
    enabled: true,
    capture(err, context = {}) {
      const scope = root.clone();
      if (context.userGuid) scope.setUser({ id: context.userGuid });
      if (context.route) scope.setTag('route', `${context.method ?? ''} ${context.route}`.trim());
      if (context.queue) scope.setTag('queue', context.queue);
      if (context.requestId) scope.setTag('request_id', context.requestId);
      scope.captureException(err);
    },
    async flush() {
      await client.flush(FLUSH_TIMEOUT_MS);
    },
  };
}
