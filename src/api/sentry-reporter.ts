import { BrowserClient, Scope, defaultStackParser, makeFetchTransport } from '@sentry/react';
import { REPORT_DATA_COLLECTION, scrubEvent, scrubUrl } from '../domain/error-report-privacy.ts';
import type { LoadedReporter } from './loaded-reporter.ts';

/**
 * Sentry for the app, in a chunk of its own that error-reporting.ts loads only when the server
 * names a DSN. Its own client and scope, no SDK integrations: nothing in the page is patched or
 * recorded (no breadcrumbs of calls or clicks, no session tracking); what is sent is the error
 * the app captures, the screen's path, and the signed-in user's guid, scrubbed by the shared
 * privacy rules.
 */
export function createSentryReporter(opts: { dsn: string; environment: string; release: string }): LoadedReporter {
  const client = new BrowserClient({
    dsn: opts.dsn,
    environment: opts.environment,
    release: opts.release,
    transport: makeFetchTransport,
    stackParser: defaultStackParser,
    integrations: [],
    dataCollection: REPORT_DATA_COLLECTION,
    sendClientReports: false,
    beforeSend: (event) => scrubEvent(event),
  });
  const root = new Scope();
  root.setClient(client);
  client.init();
  return {
    capture(err, tags, userGuid) {
      const scope = root.clone();
      scope.setUser(userGuid ? { id: userGuid } : null);
      scope.setTags({ ...tags, screen: scrubUrl(window.location.pathname) });
      scope.captureException(err);
    },
  };
}
