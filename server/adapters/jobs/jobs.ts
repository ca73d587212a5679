import PgBoss from 'pg-boss';
import type { Database } from '../../db/client.ts';

/** Background work (reports now; derivatives, zips, vendor sends later) on pg-boss (DESIGN.md §2). */
export interface Jobs {
  send(queue: string, data: object): Promise<void>;
  work<T extends object>(queue: string, handler: (data: T) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

// How often an idle worker looks for new jobs: a report asked for appears within a second or two.
const POLLING_INTERVAL_S = 1;
// A report that fails (storage down) is tried again a few times before it is marked failed.
const RETRY_LIMIT = 3;

/**
 * pg-boss in this process, on the app's own database: PostgreSQL, or PGlite through its SQL
 * adapter (pg-boss sends several statements in one call, which PGlite's exec takes).
 */
export async function startJobs(database: Database, onError: (err: unknown) => void): Promise<Jobs> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[] = []) => database.executeSql(text, values) },
    schema: 'pgboss',
    // PGlite is one connection in one process: no maintenance loops competing with requests.
    schedule: database.kind === 'postgres',
    supervise: database.kind === 'postgres',
  });
  boss.on('error', onError);
  await boss.start();
  const created = new Set<string>();
  const ensureQueue = async (name: string) => {
    if (created.has(name)) return;
    await boss.createQueue(name);
    created.add(name);
  };
  return {
    async send(queue, data) {
      await ensureQueue(queue);
      await boss.send(queue, data, { retryLimit: RETRY_LIMIT, retryDelay: 5 });
    },
    async work(queue, handler) {
      await ensureQueue(queue);
      await boss.work(queue, { pollingIntervalSeconds: POLLING_INTERVAL_S }, async (jobs) => {
        for (const job of jobs) await handler(job.data as Parameters<typeof handler>[0]);
      });
    },
    stop: () => boss.stop({ graceful: true, wait: true }),
  };
}
