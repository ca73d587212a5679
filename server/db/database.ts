import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

// The database's types, apart from client.ts that opens it, so the PGlite thread (pglite-thread.ts)
// names them without importing the module that imports it.
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of the app's database (what `db.transaction` hands its callback). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** An open database: the Drizzle handle, raw SQL for pg-boss, and the one way to close it. */
export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs SQL with parameters, or several statements without (pg-boss needs both). */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * Runs `fn` while no other process sharing this database runs its own (start-up steps: the
   * migrations, the first admin, the default catalogue). Several API processes started together
   * would otherwise race to create the same tables and rows.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
