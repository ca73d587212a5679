import { isAbsolute, relative } from 'node:path';
import { LocalStorage, storageRoot } from './adapters/storage/local-storage.ts';
import { createErrorReporter, noErrorReporter, type ErrorReporter } from './adapters/errors/error-reporter.ts';
import { buildApp } from './app.ts';
import { createDeps } from './create-deps.ts';
import { webhookKeyFile } from './services/webhook-secrets.ts';
import { startJobWorkers } from './job-workers.ts';
import { ConfigError, loadConfig } from './config.ts';
import { embeddedDatabaseDir, embeddedDatabaseExists } from './db/client.ts';
import { loggerOptions } from './http/logger.ts';
import { ensureCatalogue } from './catalogue/load-catalogue.ts';
import { ensureAdmin } from './services/admin-bootstrap.ts';
import { APP_VERSION } from './version.ts';

// Set once the configuration is read, so a crash at any later point is reported too.
let reporter: ErrorReporter = noErrorReporter;

/** A crash: logged, reported (waiting briefly for the report to leave), and the process ends. */
async function crash(what: string, err: unknown): Promise<never> {
  console.error(`${what}:`, err instanceof Error ? (err.stack ?? err.message) : err);
  reporter.capture(err);
  await reporter.flush();
  process.exit(1);
}

/** A path as the person starting the server would write it: relative to where they are, when inside it. */
function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? `./${rel}` : path;
}

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
  reporter = await createErrorReporter({ dsn: config.sentry?.dsn, environment: config.sentry?.environment, release: APP_VERSION });
  process.on('uncaughtException', (err) => void crash('The lab server crashed', err));
  process.on('unhandledRejection', (err) => void crash('The lab server crashed', err));

  // Creating the embedded database takes a few seconds: say so, or a first start looks stuck.
  if (!config.databaseUrl && !embeddedDatabaseExists(config.dataDir)) {
    console.log(`Creating the embedded database in ${shownPath(embeddedDatabaseDir(config.dataDir))} (first start, a few seconds)…`);
  }
  // The embedded database runs on a thread of its own: if it stops, so does the server.
  const { deps, database, mailTransport, webhookKeySource } = await createDeps(config, {
    errors: reporter,
    onDatabaseFailure: (err) => void crash('The embedded database stopped', err),
  });
  const { jobs } = deps;
  // Processes started together take turns: one creates the first admin and the catalogue. Inside
  // the turn the two are independent, so they run side by side (the password hash is off-thread),
  // and beside the app's routes being built (this thread) while the database works on its own.
  const [app, { admin, catalogueLoaded }] = await Promise.all([
    buildApp(deps, { logger: loggerOptions({ level: config.logLevel }) }),
    database.exclusive(async () => {
      const [created, loaded] = await Promise.all([ensureAdmin(database.db, config), ensureCatalogue(database.db)]);
      return { admin: created, catalogueLoaded: loaded };
    }),
  ]);
  if (admin?.demo) {
    console.log(`Created the demo admin: ${admin.email} / ${admin.password} (set ADMIN_EMAIL and ADMIN_PASSWORD for a real one)`);
  } else if (admin) {
    app.log.info(`Created the admin ${admin.email}`);
  }
  if (catalogueLoaded) console.log('Loaded the default catalogue (replace it with npm run catalogue:load -- <file>)');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await jobs.stop();
    // PGlite keeps the process alive until closed, and must flush its files.
    await database.close();
    await reporter.flush();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // Behind the first answer: nothing a request needs waits for them. Housekeeping (sessions,
  // idempotency keys, rate-limit windows, abandoned uploads, mail retries) runs from here, once
  // for the whole lab however many processes are up, with the settling of payments and refunds a
  // crash left pending and the embedded database's statistics (job-workers.ts). Jobs sent before
  // they start wait in their queue.
  await startJobWorkers({ ...deps, log: app.log });
  // A crash leaves the temporary files of the writes it cut short (an upload, a zip): cleared in
  // the background, sparing any write this process has begun meanwhile.
  if (deps.storage instanceof LocalStorage) {
    void deps.storage
      .removeWriteLeftovers()
      .then((removed) => removed && app.log.info({ removed }, 'removed the temporary files of writes an earlier process left unfinished'))
      .catch((err: unknown) => app.log.warn({ err }, 'the temporary files of unfinished writes could not be cleared'));
  }
  console.log(config.s3 ? `Photos and files are stored in the S3 bucket ${config.s3.bucket}` : `Photos and files are stored under ${storageRoot(config.dataDir)}`);
  console.log(config.stripe ? 'Card payments: Stripe' : 'Card payments: sandbox (TEST MODE, Stripe test cards only)');
  if (mailTransport.name === 'smtp') console.log('Mail goes out through SMTP');
  else if (config.production) {
    console.warn('WARNING: mail is NOT being delivered (SMTP_URL is not set): password-reset codes and receipts reach nobody. The log names only the recipient and subject of each mail.');
  } else console.log('Mail goes out through the log (set SMTP_URL to send it)');
  if (webhookKeySource === 'database') console.warn('WARNING: WEBHOOK_SECRET_KEY is not set: partner webhook secrets are sealed with a key kept in the database itself. Set it (the same on every process) before production.');
  else console.log(`Partner webhook secrets are sealed with ${webhookKeySource === 'key file' ? shownPath(webhookKeyFile(config.dataDir)) : 'WEBHOOK_SECRET_KEY'}`);
  console.log(`Errors are ${reporter.enabled ? 'reported to Sentry' : 'logged only (set SENTRY_DSN to report them)'}`);
  console.log(`Print lab is running at ${config.publicUrl ?? `http://localhost:${config.port}`} (database: ${database.kind})`);
}

main().catch(async (err: unknown) => {
  console.error('The lab server could not start:', err instanceof Error ? err.message : err);
  reporter.capture(err);
  await reporter.flush();
  process.exit(1);
});
