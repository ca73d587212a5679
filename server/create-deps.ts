import { lazyLittleCms } from './adapters/colour/little-cms.ts';
import { createErrorReporter, type ErrorReporter } from './adapters/errors/error-reporter.ts';
import { reportJobErrors, startJobs, type Jobs } from './adapters/jobs/jobs.ts';
import { mailTransportFor, type MailTransport } from './adapters/mail/mail-transport.ts';
import { sandboxPayments } from './adapters/payments/sandbox-payments.ts';
import { LocalStorage, storageRoot } from './adapters/storage/local-storage.ts';
import type { Storage } from './adapters/storage/storage.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import type { ServerDeps } from './deps.ts';
import { errorText } from './http/logger.ts';
import { loadAppSecret } from './services/app-secret.ts';
import { createMailer } from './services/mail-service.ts';
import { UploadActivity } from './services/upload-activity.ts';
import { loadWebhookKey, sealPlainWebhookSecrets, secretBox, type WebhookKeySource } from './services/webhook-secrets.ts';
import { APP_VERSION } from './version.ts';

/** What a caller may set instead of what the configuration gives (the tests, and main.ts's crash handling). */
export interface DepsOverrides {
  /** An open database (the tests' fresh copy); by default the configuration's is opened. */
  database?: Database;
  /** When the embedded database's thread stops (main.ts ends the process). */
  onDatabaseFailure?: (err: Error) => void;
  /** By default Sentry when configured, else logging only. */
  errors?: ErrorReporter;
  /** By default pg-boss on the database (tests: none, or jobs recorded without running). */
  jobs?: Jobs;
  /** Where failures of mail and background jobs are written (default: standard error). */
  log?: (line: string) => void;
  /** Where the log transport prints a mail when no SMTP server is configured (default: standard output). */
  printMail?: (line: string) => void;
  /** The clock of sessions, lockouts, signed URLs and the payment sandbox (tests move it). */
  now?: () => Date;
  /** Orders receiving photos now; null makes previews at once (tests that are not about it). */
  uploadActivity?: UploadActivity | null;
}

/** The app's parts, and what the starter of the process also needs to show and to close. */
export interface LabDeps {
  deps: ServerDeps;
  database: Database;
  mailTransport: MailTransport;
  /** Where the key sealing webhook secrets came from (the start says so). */
  webhookKeySource: WebhookKeySource;
}

/** The local object store of a configuration (DATA_DIR/objects), as the app and the lab's commands use it. */
export function localStorageFor(config: Pick<Config, 'dataDir'>, secret: string, now?: () => Date): LocalStorage {
  return new LocalStorage({ root: storageRoot(config.dataDir), secret, ...(now ? { now } : {}) });
}

/** Photos and files: the S3 bucket when one is configured, else the local store. */
export async function storageFor(config: Pick<Config, 'dataDir' | 's3'>, secret: string, now?: () => Date): Promise<Storage> {
  // S3's client is loaded only when configured: a second or so of start.
  if (config.s3) return new (await import('./adapters/storage/s3-storage.ts')).S3Storage(config.s3);
  return localStorageFor(config, secret, now);
}

/**
 * The one wiring of the lab's dependencies from its configuration: database, secret, storage,
 * mail, payments, jobs, error reporting, upload activity and clock. main.ts and the API tests
 * build the app from it, so a test runs the parts production runs, overrides aside.
 */
export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<LabDeps> {
  const log = overrides.log ?? ((line: string) => console.error(line));
  const errors = overrides.errors ?? (await createErrorReporter({ dsn: config.sentry?.dsn, environment: config.sentry?.environment, release: APP_VERSION }));
  const database = overrides.database ?? (await openDatabase({ ...config, ...(overrides.onDatabaseFailure ? { onFailure: overrides.onDatabaseFailure } : {}) }));
  const appSecret = await loadAppSecret(database.db);
  const webhookKey = loadWebhookKey(config, appSecret);
  const webhookSecrets = secretBox(webhookKey.key);
  await sealPlainWebhookSecrets(database.db, webhookSecrets);
  const mailTransport = mailTransportFor(config, overrides.printMail);
  const mailer = createMailer(database.db, mailTransport, config.mailFrom, (msg, err) => log(err === undefined ? msg : `${msg} ${errorText(err)}`));
  const jobs = overrides.jobs ?? (await startJobs(database, reportJobErrors(errors, log)));
  // Stripe's client is loaded only when configured: a second or so of start.
  const payments = config.stripe ? (await import('./adapters/payments/stripe-payments.ts')).stripePayments(config.stripe) : sandboxPayments(database.db, overrides.now);
  const uploadActivity = overrides.uploadActivity === undefined ? new UploadActivity() : overrides.uploadActivity;
  const deps: ServerDeps = {
    db: database.db,
    config,
    appSecret,
    webhookSecrets,
    mailer,
    jobs,
    errors,
    littleCms: lazyLittleCms(),
    payments,
    storage: await storageFor(config, appSecret, overrides.now),
    ...(uploadActivity ? { uploadActivity } : {}),
    ...(overrides.now ? { now: overrides.now } : {}),
  };
  return { deps, database, mailTransport, webhookKeySource: webhookKey.source };
}
