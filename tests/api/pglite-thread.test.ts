import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import type { Database } from '../../server/db/client.ts';
import { openPgliteThread } from '../../server/db/pglite-thread.ts';
import { users } from '../../server/db/schema.ts';

/**
 * The embedded database on its own thread (server/db/pglite-thread.ts). The whole API suite runs
 * on it (tests/api/helper.ts); these are the cases particular to the thread.
 */
const snapshot = () => new Blob([readFileSync(inject('pgliteSnapshot'))]);
const rows = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
let open: Database | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

describe('the embedded database on its own thread', () => {
  it('keeps a transaction to itself: a query from outside waits for its commit, a rollback leaves nothing', async () => {
    const database = (open = await openPgliteThread({ loadDataDir: snapshot() }));
    const { db } = database;
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.insert(users).values({ email: 'inside@lab.example', passwordHash: 'x' });
      const query = db.select({ email: users.email }).from(users).where(eq(users.email, 'inside@lab.example'));
      let answered = false;
      outside = query.then((found) => ((answered = true), found));
      // A later statement of the transaction is answered while the outside query still waits.
      await tx.select({ email: users.email }).from(users).limit(1);
      expect(answered).toBe(false);
    });
    expect(await outside).toEqual([{ email: 'inside@lab.example' }]);
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(users).values({ email: 'undone@lab.example', passwordHash: 'x' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.select().from(users).where(eq(users.email, 'undone@lab.example'))).toEqual([]);
  });

  it("brings PostgreSQL's errors across with their code, and stays usable", async () => {
    const { db, executeSql } = (open = await openPgliteThread({ loadDataDir: snapshot() }));
    await db.insert(users).values({ email: 'twice@lab.example', passwordHash: 'x' });
    const duplicate = await db
      .insert(users)
      .values({ email: 'twice@lab.example', passwordHash: 'x' })
      .catch((err: unknown) => err);
    expect((duplicate as { cause?: { code?: string; constraint?: string } }).cause).toMatchObject({ code: '23505', constraint: 'users_email_key' });
    await expect(executeSql('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
    // pg-boss's path: PGlite's own parsing (dates as Date objects), several statements at once.
    expect((await executeSql('select $1::timestamptz as at', ['2026-01-02T03:04:05Z'])).rows).toEqual([{ at: new Date('2026-01-02T03:04:05Z') }]);
    expect((await executeSql('select 1 as a; select 2 as b')).rows).toEqual([{ b: 2 }]);
    expect(rows(await db.execute(sql`select count(*)::int as n from users where email = 'twice@lab.example'`))).toEqual([{ n: 1 }]);
  });

  it('says so when the thread stops under it, and every call fails from then on', async () => {
    const failures: Error[] = [];
    const database = (open = await openPgliteThread({ loadDataDir: snapshot(), onFailure: (err) => failures.push(err) }));
    const post = vi.spyOn(Worker.prototype, 'postMessage');
    await database.db.execute(sql`select 1`);
    // The thread itself, as the API's side posted to it; stopped as a crash would stop it.
    const thread = post.mock.contexts[0] as Worker;
    post.mockRestore();
    await thread.terminate();
    await vi.waitFor(() => expect(failures).toHaveLength(1));
    expect(failures[0]?.message).toMatch(/the database thread ended/);
    const after = await database.db.execute(sql`select 1`).catch((err: unknown) => err);
    expect((after as { cause?: Error }).cause?.message).toMatch(/the database thread ended/);
  });
});
