import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { checkAnswersAgainstDocument } from './answer-contract.ts';
import { scratchPostgres } from './server-process.ts';
import type { Jobs } from '../../server/adapters/jobs/jobs.ts';
import type { LittleCms } from '../../server/adapters/colour/little-cms.ts';
import { LocalStorage } from '../../server/adapters/storage/local-storage.ts';
import type { UploadActivity } from '../../server/services/upload-activity.ts';
import { createDeps, localStorageFor } from '../../server/create-deps.ts';
import { startJobWorkers } from '../../server/job-workers.ts';
import { HttpError } from '../../server/http/errors.ts';
import { loggerOptions } from '../../server/http/logger.ts';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { openPostgres, wrapPglite, type Database, type Db } from '../../server/db/client.ts';
import { openPgliteThread } from '../../server/db/pglite-thread.ts';
import { users } from '../../server/db/schema.ts';
import { hashPassword } from '../../server/services/passwords.ts';
import { API_PREFIX } from '../../src/domain/paths.ts';

/** 'postgres' runs the suite against TEST_DATABASE_URL (CI does both); PGlite otherwise. */
const usePostgres = process.env.API_TEST_DATABASE === 'postgres';

export interface TestApp {
  app: App;
  db: Db;
  /** The embedded store (the app's, unless `env` names an S3 bucket). */
  storage: LocalStorage;
  /** Mails as the log transport printed them. */
  printed: string[];
  /** The app's LittleCMS (the papers' profiles are checked with it). */
  littleCms: LittleCms;
  config: Config;
  /** Every line the app logged, when created with captureLogs (or API_TEST_CAPTURE_LOGS=1). */
  logs: string[];
  /** Background jobs: pg-boss when the test asked for them (createTestApp({}, { jobs: true })). */
  jobs: Jobs;
  /** Moves the server's clock (session expiry, lockouts). */
  clock: { now: Date };
  /** Jobs sent, with createTestApp(env, { jobs: 'recorded' }): queued, never run. */
  sentJobs: { queue: string; data: object }[];
  close(): Promise<void>;
}

/** A fresh app over a fresh, migrated database: no state is shared between test files. */
/** Tests that do not ask for background jobs get none: a job sent there is a test mistake. */
const noJobs: Jobs = {
  send: async () => {
    throw new HttpError(503, 'ServiceUnavailable', 'Background jobs are not running in this test (createTestApp({}, { jobs: true })).');
  },
  work: async () => {},
  every: async () => {},
  stop: async () => {},
};

/**
 * jobs: true runs pg-boss and the workers; 'recorded' keeps what is sent in `sentJobs` without
 * running it (for tests about who may ask, not what the job does); absent, sending fails.
 */
export async function createTestApp(env: Record<string, string> = {}, opts: { jobs?: boolean | 'recorded'; captureLogs?: boolean; uploadActivity?: UploadActivity } = {}): Promise<TestApp> {
  const { database, drop } = usePostgres ? await freshPostgres() : { database: await freshPglite(), drop: async () => {} };
  // The local object store lives under DATA_DIR: a folder of this app's own.
  const dataDir = mkdtempSync(join(tmpdir(), 'lab-objects-'));
  // Every test signs in from 127.0.0.1: the per-address limits are raised unless a test sets them.
  const config = loadConfig({
    DATA_DIR: dataDir,
    CLIENT_DIR: '/nonexistent-test-client',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    LOOKUP_RATE_LIMIT: '1000',
    ...env,
  });
  const clock = { now: new Date() };
  const now = () => clock.now;
  const sentJobs: TestApp['sentJobs'] = [];
  const recorded: Jobs = { ...noJobs, send: async (queue, data) => void sentJobs.push({ queue, data }) };
  // Mail goes to the outbox table and to this list, as the log transport prints it.
  const printed: string[] = [];
  // The wiring of main.ts: S3_BUCKET and its friends in `env` put the app on that bucket (S3 tests).
  const { deps } = await createDeps(config, {
    database,
    now,
    printMail: (line) => printed.push(line),
    log: () => {},
    // Not the pg-boss of createDeps when recorded or absent: started below only when asked for.
    ...(opts.jobs === true ? {} : { jobs: opts.jobs === 'recorded' ? recorded : noJobs }),
    uploadActivity: opts.uploadActivity ?? null,
  });
  const { jobs } = deps;
  // Captured with the app's real logger options, at the most talkative level, into memory.
  const logs: string[] = [];
  // API_TEST_CAPTURE_LOGS=1 runs any API test this way, and checks its log on close.
  const captureAll = process.env.API_TEST_CAPTURE_LOGS === '1';
  const capture = opts.captureLogs ?? captureAll;
  const app = await buildApp(deps, capture ? { logger: loggerOptions({ level: 'trace', stream: { write: (line) => logs.push(line) } }) } : {});
  if (opts.jobs === true) await startJobWorkers(deps);
  // Every answer a test gets is checked against the API document; a mismatch fails the file on close.
  const answers = checkAnswersAgainstDocument(app);
  return {
    app,
    db: database.db,
    storage: deps.storage instanceof LocalStorage ? deps.storage : localStorageFor(config, deps.appSecret, now),
    printed,
    littleCms: deps.littleCms,
    logs,
    config,
    jobs,
    clock,
    sentJobs,
    close: async () => {
      await app.close();
      if (captureAll && logs.length) expectLogHygiene(logs, []);
      await jobs.stop();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
      answers.check();
    },
  };
}

async function freshPglite(): Promise<Database> {
  const snapshot = new Blob([readFileSync(inject('pgliteSnapshot'))]);
  // The server runs PGlite on a thread of its own (pglite-thread.ts); API_TEST_PGLITE=in-process
  // runs the suite on the thread of the app, as the tests' own scripts do.
  return process.env.API_TEST_PGLITE === 'in-process' ? wrapPglite(await PGlite.create({ loadDataDir: snapshot })) : openPgliteThread({ loadDataDir: snapshot });
}

async function freshPostgres(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (!process.env.TEST_DATABASE_URL) throw new Error('API_TEST_DATABASE=postgres needs TEST_DATABASE_URL');
  const { url, drop } = await scratchPostgres('lab_test');
  // Dropping the test database ends its idle connections: expected here, so not reported.
  return { database: await openPostgres(url, () => {}), drop };
}

let userCounter = 0;

/** Inserts a user directly (sign-up has its own tests) and returns it with its password. */
export async function createUser(db: Db, fields: Partial<typeof users.$inferInsert> = {}) {
  userCounter += 1;
  const password = fields.passwordHash ? 'unknown' : `password-${userCounter}-ok`;
  const [user] = await db
    .insert(users)
    .values({
      email: `photographer${userCounter}-${randomBytes(3).toString('hex')}@example.com`,
      firstName: 'Ansel',
      lastName: `Adams ${userCounter}`,
      businessName: `Studio ${userCounter}`,
      ...fields,
      passwordHash: fields.passwordHash ?? (await hashPassword(password)),
    })
    .returning();
  if (!user) throw new Error('user not created');
  return { user, password };
}

export const api = (path: string) => `${API_PREFIX}${path}`;

/** Signs in through the real login call and returns the session token. */
export async function signIn(app: App, email: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: api('/login'), payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}

/** The error body of docs/api.md §2, checked field by field. */
export function expectErrorBody(body: unknown, status: number): { class_name: string; message: string; more_info: string[] } {
  const b = body as { error?: Record<string, unknown> };
  if (!b.error) throw new Error(`no error body: ${JSON.stringify(body)}`);
  const e = b.error as { status: number; class_name: string; developer_message: string; user_message: { message: string }; more_info: string[] };
  if (e.status !== status) throw new Error(`error.status ${e.status}, expected ${status}`);
  if (typeof e.class_name !== 'string' || typeof e.developer_message !== 'string' || typeof e.user_message?.message !== 'string' || !Array.isArray(e.more_info)) {
    throw new Error(`error body incomplete: ${JSON.stringify(body)}`);
  }
  return { class_name: e.class_name, message: e.user_message.message, more_info: e.more_info };
}

// What a secret looks like in a log line even when the test does not know its value.
const SECRET_SHAPES: [string, RegExp][] = [
  ['an argon2 hash', /\$argon2(id|i|d)\$/],
  ['a URL signature', /[?&](sig|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|token)=(?!\[REDACTED\])[^&"\s]/i],
];

/** Fails when any captured log line holds one of `secrets`, or anything shaped like a secret. */
export function expectLogHygiene(lines: string[], secrets: string[]): void {
  if (!lines.length) throw new Error('no log lines were captured: the check would prove nothing');
  for (const line of lines) {
    for (const secret of secrets) {
      if (secret && line.includes(secret)) throw new Error(`the log shows a secret (${secret.slice(0, 3)}…): ${line.slice(0, 2000)}`);
    }
    for (const [what, shape] of SECRET_SHAPES) {
      if (shape.test(line)) throw new Error(`the log shows ${what}: ${line.slice(0, 2000)}`);
    }
  }
}
