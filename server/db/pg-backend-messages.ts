import { messages } from '@electric-sql/pglite';

/**
 * What a Bind/Execute/Sync exchange answered, read from PostgreSQL's raw protocol bytes (the
 * prepared path of pglite-statements.ts). PGlite's own reader copies every column value into an
 * ArrayBuffer of its own before decoding it: a tenth of the CPU of an orders-list page. This one
 * decodes each value straight from the answer's bytes.
 */
export interface BackendAnswer {
  /** Each row's values as PostgreSQL's text output (null for SQL NULL). */
  rows: (string | null)[][];
  /** The command tag ("SELECT 3", "UPDATE 1", "INSERT 0 1"). */
  commandTag: string | undefined;
  /** The first error, as PGlite would have thrown it. */
  error: messages.DatabaseError | undefined;
}

// Backend message types (PostgreSQL protocol 3) this reader acts on; every other one (BindComplete,
// NoData, ReadyForQuery, notices, parameter status …) is stepped over.
const DATA_ROW = 0x44; // 'D'
const COMMAND_COMPLETE = 0x43; // 'C'
const ERROR_RESPONSE = 0x45; // 'E'

/** The fields of an ErrorResponse, by their one-letter codes, onto PGlite's DatabaseError. */
function databaseError(buf: Buffer, start: number, end: number, length: number): messages.DatabaseError {
  const fields: Record<string, string> = {};
  let at = start;
  while (at < end && buf[at] !== 0) {
    const code = String.fromCharCode(buf[at] ?? 0);
    const stop = buf.indexOf(0, at + 1);
    fields[code] = buf.toString('utf8', at + 1, stop);
    at = stop + 1;
  }
  const error = new messages.DatabaseError(fields.M ?? 'database error', length, 'error');
  Object.assign(error, {
    severity: fields.S,
    code: fields.C,
    detail: fields.D,
    hint: fields.H,
    position: fields.P,
    internalPosition: fields.p,
    internalQuery: fields.q,
    where: fields.W,
    schema: fields.s,
    table: fields.t,
    column: fields.c,
    dataType: fields.d,
    constraint: fields.n,
    file: fields.F,
    line: fields.L,
    routine: fields.R,
  });
  return error;
}

export function readBackendAnswer(bytes: Uint8Array): BackendAnswer {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const answer: BackendAnswer = { rows: [], commandTag: undefined, error: undefined };
  let at = 0;
  while (at + 5 <= buf.length) {
    const type = buf[at];
    // The length counts itself (4 bytes) but not the type byte.
    const length = buf.readInt32BE(at + 1);
    const body = at + 5;
    const end = at + 1 + length;
    if (type === DATA_ROW) {
      const count = buf.readInt16BE(body);
      const row: (string | null)[] = [];
      let p = body + 2;
      for (let i = 0; i < count; i++) {
        const size = buf.readInt32BE(p);
        p += 4;
        if (size < 0) {
          row.push(null);
        } else {
          row.push(buf.toString('utf8', p, p + size));
          p += size;
        }
      }
      answer.rows.push(row);
    } else if (type === COMMAND_COMPLETE) {
      answer.commandTag = buf.toString('utf8', body, end - 1);
    } else if (type === ERROR_RESPONSE && !answer.error) {
      answer.error = databaseError(buf, body, end, length);
    }
    at = end;
  }
  return answer;
}
