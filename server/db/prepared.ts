import type { Db } from './client.ts';

/**
 * A query built once per database and kept with it: a Drizzle prepared query
 * (`.prepare(name)` with `sql.placeholder`s), for the reads every request makes. Building a
 * Drizzle select costs more than running it on the embedded database (about 60 µs for a select
 * of a user's columns, 130 µs for the session lookup, against 20-30 µs to run either), so the
 * hot reads are built once. Kept per database, weakly: a test's database takes its own with it.
 *
 * The name is the statement's name on PostgreSQL (node-postgres prepares it once per
 * connection): unique per query.
 */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
