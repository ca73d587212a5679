import type { FastifyBaseLogger } from 'fastify';
import type { LittleCms } from './adapters/colour/little-cms.ts';
import type { ErrorReporter } from './adapters/errors/error-reporter.ts';
import type { Jobs } from './adapters/jobs/jobs.ts';
import type { Payments } from './adapters/payments/payments.ts';
import type { Storage } from './adapters/storage/storage.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Mailer } from './services/mail-service.ts';
import type { UploadActivity } from './services/upload-activity.ts';
import type { SecretBox } from './services/webhook-secrets.ts';

/** What the app is built from: passed in, never module-level singletons. */
export interface ServerDeps {
  db: Db;
  config: Config;
  /** The server's signing secret (see services/app-secret.ts). */
  appSecret: string;
  /** Seals partner webhooks' signing secrets at rest (WEBHOOK_SECRET_KEY; services/webhook-secrets.ts). */
  webhookSecrets: SecretBox;
  /** Photos, certificates and reports (local files by default). */
  storage: Storage;
  /** Mail through the outbox (printed by default, SMTP when configured). */
  mailer: Mailer;
  /** Saved cards and charges (the TEST MODE sandbox by default, Stripe when configured). */
  payments: Payments;
  /** Background jobs (pg-boss on the app's database). */
  jobs: Jobs;
  /** Server errors to Sentry when SENTRY_DSN is set (they are logged either way). */
  errors: ErrorReporter;
  /** LittleCMS, loaded on first use: the papers' ICC profiles are checked with the proof's own transforms. */
  littleCms: LittleCms;
  log?: FastifyBaseLogger;
  /**
   * Orders receiving photos now: while there are, previews are made one at a time (upload-activity.ts).
   * Absent (tests), previews are made at once.
   */
  uploadActivity?: UploadActivity;
  /** Injected so tests can move time (session expiry, lockouts). */
  now?: () => Date;
}
