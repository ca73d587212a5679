import { LocalStorage, storageRoot } from './adapters/storage/local-storage.ts';
import { S3Storage } from './adapters/storage/s3-storage.ts';
import { mailTransportFor } from './adapters/mail/mail-transport.ts';
import { sandboxPayments } from './adapters/payments/sandbox-payments.ts';
import { stripePayments } from './adapters/payments/stripe-payments.ts';
import { startJobs } from './adapters/jobs/jobs.ts';
import { buildApp } from './app.ts';
import { startJobWorkers } from './job-workers.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import { errorText, loggerOptions } from './http/logger.ts';
import { ensureCatalogue } from './catalogue/load-catalogue.ts';
import { ensureAdmin } from './services/admin-bootstrap.ts';
import { loadAppSecret } from './services/app-secret.ts';
import { purgeExpiredSessions } from './services/auth-service.ts';
import { createMailer } from './services/mail-service.ts';
import { queueMissingDerivatives } from './services/photo-derivatives.ts';
import { purgeExpiredUploads } from './services/upload-service.ts';

// Expired sessions, old idempotency answers and abandoned uploads are swept this often.
const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;
// Mail that could not be sent at once is tried again this often.
const MAIL_RETRY_INTERVAL_MS = 60 * 1000;

/** Read config → open db (migrations run) → build app → listen. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const database = await openDatabase(config);
  const appSecret = await loadAppSecret(database.db);
  const transport = mailTransportFor(config);
  const mailer = createMailer(database.db, transport, config.mailFrom, (msg, err) => console.error(msg, err === undefined ? '' : errorText(err)));
  const jobs = await startJobs(database, (err) => console.error('background jobs:', errorText(err)));
  const deps = {
    db: database.db,
    config,
    appSecret,
    mailer,
    jobs,
    payments: config.stripe ? stripePayments(config.stripe) : sandboxPayments(database.db),
    storage: config.s3 ? new S3Storage(config.s3) : new LocalStorage({ root: storageRoot(config.dataDir), secret: appSecret }),
  };
  const app = await buildApp(deps, { logger: loggerOptions({ level: config.logLevel }) });
  await startJobWorkers(deps);

  const admin = await ensureAdmin(database.db, config);
  if (admin?.demo) {
    console.log(`Created the demo admin: ${admin.email} / ${admin.password} (set ADMIN_EMAIL and ADMIN_PASSWORD for a real one)`);
  } else if (admin) {
    app.log.info(`Created the admin ${admin.email}`);
  }

  if (await ensureCatalogue(database.db)) console.log('Loaded the default catalogue (replace it with npm run catalogue:load -- <file>)');

  const housekeeping = setInterval(() => {
    Promise.all([
      purgeExpiredSessions(database.db),
      purgeIdempotencyKeys(database.db),
      purgeExpiredUploads({ ...deps, log: app.log }),
      queueMissingDerivatives(deps),
    ]).catch((err: unknown) =>
      app.log.error({ err }, 'housekeeping failed'),
    );
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();
  const mailRetry = setInterval(() => {
    mailer.sendPending().catch((err: unknown) => app.log.error({ err }, 'mail retry failed'));
  }, MAIL_RETRY_INTERVAL_MS);
  mailRetry.unref();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    clearInterval(housekeeping);
    clearInterval(mailRetry);
    await app.close();
    await jobs.stop();
    // PGlite keeps the process alive until closed, and must flush its files.
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  console.log(config.s3 ? `Photos and files are stored in the S3 bucket ${config.s3.bucket}` : `Photos and files are stored under ${storageRoot(config.dataDir)}`);
  console.log(config.stripe ? 'Card payments: Stripe' : 'Card payments: sandbox (TEST MODE, Stripe test cards only)');
  if (transport.name === 'smtp') console.log('Mail goes out through SMTP');
  else if (config.production) {
    console.warn('WARNING: mail is NOT being delivered (SMTP_URL is not set): password-reset codes and receipts reach nobody. The log names only the recipient and subject of each mail.');
  } else console.log('Mail goes out through the log (set SMTP_URL to send it)');
  console.log(`Print lab is running at ${config.publicUrl ?? `http://localhost:${config.port}`} (database: ${database.kind})`);
}

main().catch((err: unknown) => {
  console.error('The lab server could not start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
