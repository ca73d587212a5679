/**
 * Messages between the API's thread and the embedded database's thread (pglite-thread.ts,
 * pglite-worker.ts). Values cross by structured clone: rows hold text, numbers, booleans, null,
 * parsed JSON, bytes and (for pg-boss) dates.
 */
export type ThreadRequest =
  /** A query outside transactions, as a prepared statement (pglite-statements.ts). */
  | { id: number; op: 'query'; text: string; params: unknown[]; rowMode: 'array' | 'object' | undefined }
  /** SQL as PGlite's own query()/exec() answer it (dates as Date objects): pg-boss. */
  | { id: number; op: 'own'; text: string; params: unknown[] }
  | { id: number; op: 'begin' }
  | { id: number; op: 'txQuery'; tx: number; text: string; params: unknown[]; rowMode: 'array' | 'object' | undefined }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'close' };

/** An error as it crosses: its message and its plain fields (a DatabaseError's code, detail …). */
export interface ThreadError {
  message: string;
  name: string;
  database: boolean;
  fields: Record<string, string | number | boolean | null>;
}

export type ThreadAnswer = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ThreadError };

export type ThreadStart = { started: true } | { started: false; error: ThreadError };

/** What the database thread is given: a directory, or a snapshot to start from (tests). */
export interface ThreadData {
  entry: string;
  dataDir?: string | undefined;
  loadDataDir?: Blob | undefined;
}

export function threadError(err: unknown): ThreadError {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error', database: false, fields: {} };
  const fields: ThreadError['fields'] = {};
  // Only plain values cross: a PGlite error also carries the query's options (parser functions).
  for (const [key, value] of Object.entries(err)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean | null;
  }
  return { message: err.message, name: err.name, database: typeof fields.code === 'string' && typeof fields.severity === 'string', fields };
}
