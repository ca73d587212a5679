import { eq, sql } from 'drizzle-orm';
import { perDatabase } from '../db/prepared.ts';
import { accountVersions } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { unauthorized } from '../http/errors.ts';
import { profile } from './account-service.ts';
import type { Actor } from './auth-service.ts';
import { createPageCache } from './list-page-cache.ts';

/**
 * The profile's answer (GET /profile), kept in memory as the JSON it was sent as, under the
 * version of the account (migration 0027_account_versions: deferred triggers on the user, their
 * addresses, cards, shops and tax reports, their referrer and the users they referred write a
 * new one at the commit of any change).
 *
 * Why: the app asks for the profile on every screen that shows the account or pays; its one
 * query reads six tables, and on the embedded database each table opened costs file-system calls
 * on the database's thread, which made the profile the slowest small read of the API.
 *
 * Never stale: the version is read before the answer is built, so an answer built while a change
 * commits is kept under the version before it, which no later read asks for; several processes
 * on one PostgreSQL each check the database's version on every read. An answer holding a signed
 * link (a resale certificate, a ready tax report) is not kept: its link is signed as of the call.
 * The tax reports' years depend on the year, which is part of the key.
 */

// Answers kept per process: about a kilobyte each, so every photographer of a busy lab.
const MAX_BYTES = 4 * 1024 * 1024;

const keptProfiles = perDatabase(() => createPageCache(MAX_BYTES));

const versionQuery = perDatabase((db) =>
  db.select({ version: accountVersions.version }).from(accountVersions).where(eq(accountVersions.userGuid, sql.placeholder('user'))).prepare('account_version'),
);

/** GET /profile as JSON text: the kept answer while the account's version is unchanged. */
export async function profileJson(deps: ServerDeps, actor: Actor | null): Promise<string> {
  if (!actor) throw unauthorized();
  const [row] = await versionQuery(deps.db).execute({ user: actor.user.guid });
  const key = row ? [actor.user.guid, row.version, (deps.now?.() ?? new Date()).getUTCFullYear()].join('\u0000') : null;
  const cache = keptProfiles(deps.db);
  const kept = key === null ? undefined : cache.get(key);
  if (kept !== undefined) return kept;
  const answer = await profile(deps, actor);
  const json = JSON.stringify(answer);
  const signed = answer.user.blanket_certificate_of_resale_link !== null || answer.tax_reports.some((r) => r.csv_link !== null || r.pdf_link !== null);
  if (key !== null && !signed) cache.keep(key, json);
  return json;
}
