import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startJobs, type Jobs } from '../../server/adapters/jobs/jobs.ts';
import { wrapPglite, type Database } from '../../server/db/client.ts';

/**
 * A job the process was running when it died (kill -9 in the middle of a zip) is tried again when
 * the embedded database opens next. On PGlite pg-boss's supervisor is off, so without this the
 * job stayed 'active' for ever. (On PostgreSQL the supervisor expires it; several processes share
 * the database there, so none may take another's active job at start.)
 */
const QUEUE = 'crash-recovery-test';
let database: Database;
beforeAll(async () => {
  database = await wrapPglite(await PGlite.create({ loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot'))]) }));
});
afterAll(() => database.close());

const jobState = async () => (await database.executeSql(`SELECT state, retry_count FROM pgboss.job WHERE name = '${QUEUE}'`)).rows as { state: string; retry_count: number }[];

describe('jobs after a crash, on the embedded database', () => {
  it('a job left active by a dead process runs again at the next start, once, and completes', async () => {
    const noErrors = () => {};
    const first: Jobs = await startJobs(database, noErrors);
    await first.send(QUEUE, { zip: 'order-1' }, { retryLimit: 3, retryDelay: 1 });
    // What a process that fetched the job and was then killed leaves behind.
    await database.executeSql(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = '${QUEUE}'`);
    await first.stop();
    expect(await jobState()).toEqual([{ state: 'active', retry_count: 0 }]);

    const ran: string[] = [];
    const second = await startJobs(database, noErrors);
    await second.work(QUEUE, async (data: { zip: string }) => {
      ran.push(data.zip);
    });
    await vi.waitFor(async () => expect((await jobState())[0]?.state).toBe('completed'), { timeout: 30_000, interval: 200 });
    expect(ran).toEqual(['order-1']);
    await second.stop();
  });
});
