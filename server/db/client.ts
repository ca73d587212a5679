import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { drizzleClient, installDrizzleParsers } from './pglite-drizzle-client.ts';
import { migrationsFolder } from './migrations-folder.ts';
import type { Database, Db } from './database.ts';
import { openPgliteThread } from './pglite-thread.ts';
import * as schema from './schema.ts';

export { migrationsFolder };

export type { Database, Db, Tx } from './database.ts';

// The PostgreSQL advisory-lock key of the start-up steps: any fixed number no other app on the
// same server uses ("lab\0" in ASCII).
const STARTUP_LOCK_KEY = 0x6c616200;


/** Where the embedded database lives under DATA_DIR. */
export const embeddedDatabaseDir = (dataDir: string) => join(dataDir, 'db');

/** False before the embedded database's first start (PGlite writes PG_VERSION as it creates one). */
export const embeddedDatabaseExists = (dataDir: string) => existsSync(join(embeddedDatabaseDir(dataDir), 'PG_VERSION'));

/**
 * PostgreSQL when a URL is given, else PGlite under DATA_DIR/db on a thread of its own
 * (pglite-thread.ts). Migrations are applied either way.
 */
export async function openDatabase(opts: { databaseUrl?: string | undefined; dataDir: string; onFailure?: (err: Error) => void }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  const dir = embeddedDatabaseDir(opts.dataDir);
  mkdirSync(dir, { recursive: true });
  return openPgliteThread({ dataDir: dir, ...(opts.onFailure ? { onFailure: opts.onFailure } : {}) });
}

export async function openPostgres(url: string, onIdleError: (err: Error) => void = (err) => console.error('database connection lost:', err.message)): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url });
  // An idle connection dropped by the server (a restart, a failover) must not crash the process:
  // the pool replaces it on the next query.
  pool.on('error', onIdleError);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  const exclusive = async <T>(fn: () => Promise<T>): Promise<T> => {
    // A session-level lock on one connection held for the whole step; released even on failure.
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
      }
    } finally {
      client.release();
    }
  };
  await exclusive(() => migratePg(drizzlePg({ client: pool }), { migrationsFolder }));
  return {
    db,
    kind: 'postgres',
    executeSql: async (text, values) => ({ rows: (await pool.query(text, values as unknown[])).rows }),
    exclusive,
    close: () => pool.end(),
  };
}

/** Wraps an already created PGlite (tests create theirs from a migrated snapshot). */
export async function wrapPglite(client: PGlite): Promise<Database> {
  const pgliteParsers = installDrizzleParsers(client);
  const db = drizzlePglite({ client: drizzleClient(client), schema }) as unknown as Db;
  // Migrations take PGlite's own path: DDL once per start needs no prepared statements.
  await migratePglite(drizzlePglite({ client }), { migrationsFolder });
  // pg-boss gets what PGlite's own parsers make (dates as Date objects), as before.
  const own = { parsers: pgliteParsers };
  return {
    db,
    kind: 'pglite',
    executeSql: async (text, values = []) =>
      // PGlite's query() takes one statement; exec() takes several but no parameters.
      values.length ? { rows: (await client.query(text, values, own)).rows } : { rows: (await client.exec(text, own)).at(-1)?.rows ?? [] },
    // PGlite is one process's own database: nobody else can run at the same time.
    exclusive: (fn) => fn(),
    close: () => client.close(),
  };
}
