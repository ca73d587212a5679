import { randomBytes } from 'node:crypto';
import type { PGlite, QueryOptions, Results, messages as protocol } from '@electric-sql/pglite';
import { readBackendAnswer, type BackendAnswer } from './pg-backend-messages.ts';

/**
 * Queries on PGlite as named prepared statements (the embedded database only; PostgreSQL is
 * reached through node-postgres as before).
 *
 * PGlite's query() sends each query as six separate protocol calls (Parse, Describe the statement,
 * Bind, Describe the portal, Execute, Sync), and PostgreSQL parses and plans the text every time:
 * about 190 µs for a primary-key select, most of it outside the query itself. A statement here is
 * prepared once per distinct SQL text (the same for every call of one Drizzle query) with its
 * parameter and column types; each call is then one protocol call (Bind, Execute, Sync) with
 * PostgreSQL's cached plan: about 20 µs for the same select.
 *
 * Answers are what query() gives (rows, fields, affectedRows, rowCount, command), parsed with the
 * client's own parsers; a database error is the same DatabaseError, carrying query and params.
 */

// Distinct SQL texts kept prepared: the app's queries are a few hundred shapes at most (a list
// filter with a varying number of values makes one text per count). The least recently used
// statement beyond this is closed, so PostgreSQL's memory for plans stays bounded.
export const MAX_PREPARED_STATEMENTS = 500;

// SQLSTATEs of a prepared statement that no longer fits the schema (a migration changed a table
// it reads: "cached plan must not change result type") or that is gone: prepared again once.
const STALE_STATEMENT = new Set(['0A000', '26000']);

interface Statement {
  name: string;
  paramTypes: number[];
  fields: { name: string; dataTypeID: number }[];
}

interface DatabaseErrorLike extends Error {
  code?: string;
  query?: string;
  params?: unknown[];
  queryOptions?: QueryOptions;
}

// --- Frontend messages (PostgreSQL protocol 3: a type byte, an int32 length, the body). ---

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.allocUnsafe(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
const cString = (text: string) => Buffer.from(`${text}\0`, 'utf8');
const int16 = (n: number) => {
  const b = Buffer.allocUnsafe(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.allocUnsafe(4);
  b.writeInt32BE(n);
  return b;
};
const SYNC = message('S', Buffer.alloc(0));
// Execute the unnamed portal, all rows.
const EXECUTE = message('E', Buffer.concat([cString(''), int32(0)]));
const TEXT_FORMAT = 0;
const BINARY_FORMAT = 1;

const parseMessage = (name: string, text: string) => message('P', Buffer.concat([cString(name), cString(text), int16(0)]));
const describeStatement = (name: string) => message('D', Buffer.concat([Buffer.from('S'), cString(name)]));
const closeStatement = (name: string) => message('C', Buffer.concat([Buffer.from('S'), cString(name)]));

/** Bind of the unnamed portal to `statement`: text parameters (binary for bytes), text results. */
function bindMessage(statement: string, values: (string | Uint8Array | null)[]): Buffer {
  const formats: Buffer[] = [];
  const data: Buffer[] = [];
  for (const value of values) {
    if (value === null) {
      formats.push(int16(TEXT_FORMAT));
      data.push(int32(-1));
      continue;
    }
    const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    formats.push(int16(typeof value === 'string' ? TEXT_FORMAT : BINARY_FORMAT));
    data.push(int32(bytes.length), bytes);
  }
  return message(
    'B',
    Buffer.concat([cString(''), cString(statement), int16(values.length), ...formats, int16(values.length), ...data, int16(1), int16(TEXT_FORMAT)]),
  );
}

/**
 * A query function for `client` (outside transactions: it takes PGlite's own locks, as query()
 * does). Options other than rowMode (per-call parsers, serializers, blobs, parameter types) go to
 * PGlite's query() unchanged.
 */
export function preparedStatements(client: PGlite, { maxStatements = MAX_PREPARED_STATEMENTS } = {}) {
  const statements = new Map<string, Statement>();
  // Names unique to this cache: another one on the same client must not take them.
  const prefix = `lab_${randomBytes(4).toString('hex')}_`;
  let counter = 0;

  const serialise = (statement: Statement, params: unknown[]): (string | Uint8Array | null)[] =>
    params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const oid = statement.paramTypes[i];
      const serializer = oid === undefined ? undefined : client.serializers[oid];
      const value: unknown = serializer ? serializer(param) : param;
      return value instanceof Uint8Array ? value : String(value);
    });

  /** Parse + describe a new statement; evicts the least recently used one beyond the cap. */
  async function prepare(text: string): Promise<Statement> {
    const name = `${prefix}${++counter}`;
    const evicted = statements.size >= maxStatements ? statements.entries().next().value : undefined;
    const parts: Buffer[] = [];
    // The close goes first: after an error (a Parse that fails) PostgreSQL skips to the Sync.
    if (evicted) {
      statements.delete(evicted[0]);
      parts.push(closeStatement(evicted[1].name));
    }
    parts.push(parseMessage(name, text), describeStatement(name));
    const { messages } = await client.execProtocol(Buffer.concat([...parts, SYNC]), { syncToFs: false });
    const statement: Statement = { name, paramTypes: [], fields: [] };
    for (const m of messages) {
      if (m.name === 'parameterDescription') statement.paramTypes = (m as protocol.ParameterDescriptionMessage).dataTypeIDs;
      else if (m.name === 'rowDescription') statement.fields = (m as protocol.RowDescriptionMessage).fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
    }
    statements.set(text, statement);
    return statement;
  }

  async function run<T>(text: string, params: unknown[], rowMode: QueryOptions['rowMode'], retried = false): Promise<Results<T>> {
    let statement = statements.get(text);
    if (statement) {
      // Most recently used last: the Map's order is the eviction order.
      statements.delete(text);
      statements.set(text, statement);
    } else {
      statement = await prepare(text);
    }
    // The raw stream: PGlite's own execProtocolRaw also copies and parses every answer with its
    // reader (and keeps the parsed messages until its next query).
    const chunks: Buffer[] = [];
    await client.execProtocolRawStream(Buffer.concat([bindMessage(statement.name, serialise(statement, params)), EXECUTE, SYNC]), {
      // A view of the database's memory, reused by its next write: copied.
      onRawData: (bytes) => void chunks.push(Buffer.from(bytes)),
    });
    const answer = readBackendAnswer(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    if (answer.error) {
      const code = answer.error.code;
      if (!retried && code !== undefined && STALE_STATEMENT.has(code)) {
        statements.delete(text);
        await client.execProtocol(Buffer.concat([closeStatement(statement.name), SYNC]), { syncToFs: false });
        return run<T>(text, params, rowMode, true);
      }
      throw answer.error;
    }
    return toResults<T>(statement, answer, rowMode);
  }

  function toResults<T>(statement: Statement, answer: BackendAnswer, rowMode: QueryOptions['rowMode']): Results<T> {
    const { fields } = statement;
    const parsers = fields.map((f) => client.parsers[f.dataTypeID]);
    const rows = answer.rows.map((raw) => {
      const values = raw.map((text, i) => {
        const parse = parsers[i];
        return text === null ? null : parse ? parse(text, fields[i]?.dataTypeID ?? 0) : text;
      });
      return rowMode === 'array' ? values : Object.fromEntries(values.map((v, i) => [fields[i]?.name, v]));
    });
    // As PGlite counts it: "UPDATE 3", "INSERT 0 5"; other tags end in a word.
    const parts = answer.commandTag?.split(' ') ?? [];
    const command = parts[0];
    const n = parseInt(parts.at(-1) ?? '', 10);
    const affectedRows = ['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command ?? '') ? n : 0;
    return {
      rows: rows as T[],
      fields,
      affectedRows,
      ...(command !== undefined ? { command } : {}),
      ...(Number.isNaN(n) ? {} : { rowCount: n }),
    } as Results<T>;
  }

  return async function query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const { rowMode, ...rest } = options ?? {};
    if (Object.values(rest).some((v) => v !== undefined)) return client.query<T>(text, params, options);
    // The same locks as query(): never inside another caller's transaction or query.
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        try {
          return await run<T>(text, params, rowMode);
        } catch (err) {
          const e = err as DatabaseErrorLike;
          if (e instanceof Error && e.code !== undefined) Object.assign(e, { query: text, params, queryOptions: options });
          throw err;
        }
      }),
    );
  };
}
