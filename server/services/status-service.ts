import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { ServerDeps } from '../deps.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { APP_VERSION } from '../version.ts';

// Every open app polls the status (and probes it often while offline), so many calls a second
// share one database ping: a database that answered within this long counts as up. A failed
// ping is never reused: each call after one asks the database again.
export const STATUS_PING_FRESH_MS = 1000;

/**
 * GET /status: answers only when the database answers (a lab API without its database is down),
 * the database asked at most once per STATUS_PING_FRESH_MS however many calls come in.
 */
export function createStatusCheck(deps: Pick<ServerDeps, 'db' | 'now' | 'log'>) {
  const now = () => (deps.now?.() ?? new Date()).getTime();
  let answeredAt = -Infinity;
  let ping: Promise<void> | null = null;
  return async () => {
    if (now() - answeredAt >= STATUS_PING_FRESH_MS) {
      // Calls that come while a ping is out wait for that one rather than sending their own.
      ping ??= deps.db
        .execute(sql`select 1`)
        .then(() => void (answeredAt = now()))
        .finally(() => (ping = null));
      try {
        await ping;
      } catch (err) {
        deps.log?.error({ err }, 'status: database unreachable');
        throw new HttpError(503, 'ServiceUnavailable', 'The lab server cannot reach its database. Please try again shortly.');
      }
    }
    return { status: 'ok' as const, version: APP_VERSION, database: 'ok' as const, server_time: (deps.now?.() ?? new Date()).toISOString() };
  };
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
