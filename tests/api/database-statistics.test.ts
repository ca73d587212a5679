import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatherStatistics, vacuumAndAnalyze } from '../../server/job-workers.ts';
import { createTestApp, type TestApp } from './helper.ts';

/** reltuples is -1 for a table never analysed (PostgreSQL 14 and later), its row estimate after. */
async function estimatedRows(t: TestApp, table: string): Promise<number> {
  const result = (await t.db.execute(sql`select reltuples::float8 as n from pg_class where relname = ${table}`)) as unknown as { rows: { n: number | string }[] };
  return Number(result.rows[0]?.n);
}

describe("the embedded database's planner statistics", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { jobs: true });
  });
  afterAll(() => t.close());

  it('are gathered when the workers start (PGlite has no autovacuum to do it)', async () => {
    expect(await estimatedRows(t, 'lab_orders')).toBeGreaterThanOrEqual(0);
    expect(await estimatedRows(t, 'users')).toBeGreaterThanOrEqual(0);
  });

  it('follow the tables as they grow', async () => {
    await t.db.execute(sql`insert into users (email, password_hash) select 'stats' || g || '@lab.example', 'x' from generate_series(1, 50) g`);
    await gatherStatistics(t.db);
    expect(await estimatedRows(t, 'users')).toBeGreaterThanOrEqual(50);
  });

  it('are gathered hourly with a VACUUM of every table (PGlite has no autovacuum to reclaim deleted rows)', async () => {
    const vacuumed = async () =>
      ((await t.db.execute(sql`select count(*)::int as n from pg_stat_user_tables where last_vacuum is not null and relname in ('users', 'lab_orders', 'sessions')`)) as unknown as {
        rows: { n: number }[];
      }).rows[0]?.n;
    expect(await vacuumed()).toBe(0);
    await t.db.execute(sql`delete from users where email like 'stats%'`);
    await vacuumAndAnalyze(t.db);
    expect(await vacuumed()).toBe(3);
    expect(await estimatedRows(t, 'users')).toBeLessThan(50);
  });
});
