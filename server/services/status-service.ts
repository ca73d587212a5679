import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { ServerDeps } from '../deps.ts';
import { HttpError, notFound } from '../http/errors.ts';
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

/**
 * The version of the client build on disk, read on every call: a build deployed under a running
 * server is seen at once, without a restart.
 */
export async function currentClientVersion(clientDir: string): Promise<string> {
  try {
    const parsed = JSON.parse(await readFile(join(clientDir, 'version.json'), 'utf8')) as { version?: unknown };
    if (typeof parsed.version === 'string') return parsed.version;
  } catch {
    // No build installed, or a half-written file during a deploy: treated as no version.
  }
  throw notFound('No app build is installed on this server.');
}
