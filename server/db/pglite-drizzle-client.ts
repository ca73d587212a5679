import { types, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { preparedStatements } from './pglite-statements.ts';

/**
 * The types Drizzle reads as text and parses itself: drizzle-orm/pglite passes an identity parser
 * for each with every query (dates, times, intervals, and arrays of numerics, timestamps, dates
 * and intervals: oids 1231, 1115, 1185, 1187, 1182).
 */
const DRIZZLE_TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;

/** Anything that runs a query the way PGlite and its transactions do. */
interface Queryable {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
}

/**
 * PGlite merges the parsers given with a query into its own table of about 300 (one per type and
 * array type) on every call, by copying the whole table: about 70 µs a query, a fifth of the CPU
 * of a signed-in read on the bench. Drizzle's parsers are the same for every query, so they are
 * set once on the client instead and dropped from each call; the answer is the same text.
 *
 * Returns the PGlite parsers they replaced, for the callers that want PGlite's own parsing
 * (pg-boss through executeSql gets Date objects, as from PGlite's defaults).
 */
export function installDrizzleParsers(client: PGlite): QueryOptions['parsers'] {
  const replaced: NonNullable<QueryOptions['parsers']> = {};
  for (const oid of DRIZZLE_TEXT_TYPES) {
    const own = client.parsers[oid];
    if (own) replaced[oid] = own;
    client.parsers[oid] = asText;
  }
  return replaced;
}

function withoutParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options;
  const { parsers: _dropped, ...rest } = options;
  return rest;
}

const forDrizzle = (target: Queryable): Queryable => ({
  query: <T>(text: string, params?: unknown[], options?: QueryOptions) => target.query<T>(text, params, withoutParsers(options)),
});

/**
 * What Drizzle is given instead of the PGlite itself: the same queries and transactions, without
 * the per-call parsers (installDrizzleParsers must have run on `client`), each query outside a
 * transaction as a prepared statement (pglite-statements.ts). Queries inside a transaction take
 * PGlite's own path: they hold its transaction lock, which the prepared path waits for. Drizzle
 * uses only `query` and `transaction` of its client (drizzle-orm/pglite/session.js).
 */
export function drizzleClient(client: PGlite): PGlite {
  const adapted = {
    ...forDrizzle({ query: preparedStatements(client) }),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) => client.transaction((tx) => fn(Object.assign(Object.create(tx) as Transaction, forDrizzle(tx)))),
  };
  // Drizzle's type names PGlite; at run time it calls only the two methods above.
  return adapted as unknown as PGlite;
}
