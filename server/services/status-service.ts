import { sql } from 'drizzle-orm';
import type { ServerDeps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { APP_VERSION } from '../version.ts';

/** Answers only when the database answers: a lab API without its database is down. */
export async function serverStatus(deps: ServerDeps) {
  try {
    await deps.db.execute(sql`select 1`);
  } catch (err) {
    deps.log?.error({ err }, 'status: database unreachable');
    throw new HttpError(503, 'ServiceUnavailable', 'The lab server cannot reach its database. Please try again shortly.');
  }
  return { status: 'ok' as const, version: APP_VERSION, database: 'ok' as const, server_time: (deps.now?.() ?? new Date()).toISOString() };
}
