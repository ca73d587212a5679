import PgBoss from 'pg-boss';
import type { Database } from '../../db/client.ts';
import type { ErrorReporter } from '../errors/error-reporter.ts';
import { timerRuns } from './timer-runs.ts';

/** Work that repeats: housekeeping, mail retries. */
export interface PeriodicTask {
  /** The pg-boss queue (and schedule) name. */
  queue: string;
  /** When it runs on PostgreSQL, as a pg-boss cron expression (UTC). */
  cron: string;
  /** How often it runs on the embedded database's timer; the same period as `cron`. */
  intervalMs: number;
  run: () => Promise<void>;
}

/** Background work (reports now; derivatives, zips, vendor sends later) on pg-boss (docs/architecture.md §2). */
/** How a job is retried when it fails (the default: RETRY_LIMIT tries, 5 s apart). */
export interface RetryPolicy {
  retryLimit: number;
  /** Seconds before the first retry. */
  retryDelay: number;
  /** Doubles the delay before each further retry. */
  retryBackoff?: boolean;
}

/** Which try of a job this is: 0 the first; a failure when retryCount = retryLimit is its last. */
export interface JobAttempt {
  retryCount: number;
  retryLimit: number;
}

export interface Jobs {
  send(queue: string, data: object, retry?: RetryPolicy): Promise<void>;
  /** Works on the queue's jobs, `concurrency` at once in this process (default one). */
  work<T extends object>(queue: string, handler: (data: T, attempt: JobAttempt) => Promise<void>, opts?: { concurrency?: number }): Promise<void>;
  /** Runs a task once per period for the whole lab, however many API processes are up. */
  every(task: PeriodicTask): Promise<void>;
  stop(): Promise<void>;
}

/** A failed job or a pg-boss error, with the queue when a job failed. */
export type JobErrorHandler = (err: unknown, context?: { queue: string }) => void;

/**
 * Both are logged; a failed job is also reported, while pg-boss's own hiccups (a lost connection
 * while polling, retried by itself) are not, or one outage would send a report every second.
 */
export function reportJobErrors(reporter: ErrorReporter, log: (line: string) => void): JobErrorHandler {
  return (err, context) => {
    const message = err instanceof Error ? err.message : String(err);
    log(context ? `background job ${context.queue} failed: ${message}` : `background jobs: ${message}`);
    if (context) reporter.capture(err, context);
  };
}

// How often an idle worker looks for new jobs: a report asked for appears within a second or two.
const POLLING_INTERVAL_S = 1;
// Periodic work is not waited for by anyone: a slower poll keeps idle processes' queries down.
const PERIODIC_POLLING_INTERVAL_S = 5;
// How often pg-boss checks its cron schedules (one tiny UPDATE per process; its default is 30 s):
// a schedule registered just after start then fires within seconds rather than half a minute.
const CRON_MONITOR_INTERVAL_S = 10;
// A report that fails (storage down) is tried again a few times before it is marked failed.
const RETRY_LIMIT = 3;

/**
 * The one place that decides how periodic work is run, and why:
 * - On PostgreSQL several API processes may share the database, so a timer in each would run the
 *   work once per process. pg-boss's cron runs it once: every process registers the same schedule
 *   (one row in pgboss.schedule, keyed by name), pg-boss's timekeeper lets one process per tick
 *   create the job (singleton per minute), and one worker takes it.
 * - On PGlite pg-boss runs with its scheduler and supervisor off (one connection in one process:
 *   no maintenance loops competing with requests; docs/architecture.md §2), and no second process
 *   can open the database, so a timer in this process runs the work exactly once per period.
 */
export function periodicRunner(kind: Database['kind']): 'pg-boss-schedule' | 'process-timer' {
  return kind === 'postgres' ? 'pg-boss-schedule' : 'process-timer';
}

/**
 * pg-boss in this process, on the app's own database: PostgreSQL, or PGlite through its SQL
 * adapter (pg-boss sends several statements in one call, which PGlite's exec takes).
 */
export async function startJobs(database: Database, onError: JobErrorHandler): Promise<Jobs> {
  const scheduled = periodicRunner(database.kind) === 'pg-boss-schedule';
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[] = []) => database.executeSql(text, values) },
    schema: 'pgboss',
    schedule: scheduled,
    supervise: scheduled,
    cronMonitorIntervalSeconds: CRON_MONITOR_INTERVAL_S,
  });
  boss.on('error', (err) => onError(err));
  // Creating pg-boss's schema and a queue (a partition of its job table) in two processes at once
  // can deadlock in PostgreSQL: processes started together take turns.
  await database.exclusive(() => boss.start());
  // On PGlite this process is the only one that can open the database, so a job still active now
  // was being run by a process that died (killed, crashed, power cut): it goes back to its queue
  // to be retried after its retry delay (or fails, past its retry limit). Without the supervisor nothing
  // else would ever expire it. On PostgreSQL the supervisor does this once a job outlives its expiry.
  if (!scheduled) await requeueOrphanedJobs(database, boss);
  const created = new Set<string>();
  const ensureQueue = async (name: string, policy: PgBoss.QueuePolicy = 'standard') => {
    if (created.has(name)) return;
    await database.exclusive(() => boss.createQueue(name, { name, policy }));
    created.add(name);
  };
  const timers = timerRuns();
  // This process's workers of each queue: a job sent here wakes them, rather than waiting for
  // their next poll (a photo's previews start as soon as its upload is confirmed).
  const workers = new Map<string, string[]>();
  // A failed job is reported with its queue, then handed back to pg-boss to retry or fail.
  const reported = async (queue: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (err) {
      onError(err, { queue });
      throw err;
    }
  };

  return {
    async send(queue, data, retry) {
      await ensureQueue(queue);
      await boss.send(queue, data, retry ?? { retryLimit: RETRY_LIMIT, retryDelay: 5 });
      for (const id of workers.get(queue) ?? []) boss.notifyWorker(id);
    },
    async work(queue, handler, opts) {
      await ensureQueue(queue);
      // One pg-boss worker per job at once: each fetches and finishes its own jobs.
      for (let i = 0; i < Math.max(1, opts?.concurrency ?? 1); i++) {
        // With its metadata: a handler can tell its last try (and say so) from one pg-boss will retry.
        const id = await boss.work(queue, { pollingIntervalSeconds: POLLING_INTERVAL_S, includeMetadata: true }, async (jobs) => {
          for (const job of jobs) {
            await reported(queue, () => handler(job.data as Parameters<typeof handler>[0], { retryCount: job.retryCount, retryLimit: job.retryLimit }));
          }
        });
        workers.set(queue, [...(workers.get(queue) ?? []), id]);
      }
    },
    async every(task) {
      if (!scheduled) {
        // Reported by `reported`; nothing else to do with the failure.
        timers.every(task.intervalMs, () => reported(task.queue, task.run).catch(() => {}));
        return;
      }
      // The queue first: a schedule refers to its queue. Both calls are idempotent, so every
      // process makes them at start. 'singleton': a run that outlasts its minute (a slow mail
      // server) is never joined by the next tick's run on another process.
      await ensureQueue(task.queue, 'singleton');
      await boss.schedule(task.queue, task.cron);
      await boss.work(task.queue, { pollingIntervalSeconds: PERIODIC_POLLING_INTERVAL_S }, () => reported(task.queue, task.run));
    },
    async stop() {
      await Promise.all([timers.stop(), boss.stop({ graceful: true, wait: true })]);
    },
  };
}

/** Jobs left active by a process that is gone: failed as pg-boss fails them, so they retry. */
async function requeueOrphanedJobs(database: Database, boss: PgBoss): Promise<void> {
  const orphans = (await database.executeSql("SELECT id, name FROM pgboss.job WHERE state = 'active'", [])).rows as { id: string; name: string }[];
  for (const job of orphans) await boss.fail(job.name, job.id, { message: 'The process running this job stopped before it finished; tried again.' });
}
