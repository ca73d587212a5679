import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { paperProfileFileName, paperProfileKey, PAPER_PROFILE_KEY } from '../../src/domain/paper-profile.ts';
import type { PaperIccProfile } from '../../src/contract/catalogue.ts';
import { API, API_PREFIX, routePath } from '../../src/domain/paths.ts';
import type { Storage } from '../adapters/storage/storage.ts';
import type { Db, Tx } from '../db/client.ts';
import { catalogues, paperProfiles, papers } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, validationError } from '../http/errors.ts';
import { requireAdmin } from './admin-guard.ts';
import type { Actor } from './auth-service.ts';
import { checkPaperProfile } from './paper-profile-check.ts';

/**
 * The papers' ICC output profiles (issue 35): checked on arrival, stored by their content through
 * the storage adapter (local or S3), attached to a paper, and served to the app with the catalogue.
 */

export const PAPER_PROFILE_CONTENT_TYPE = 'application/vnd.iccprofile';

export type PaperProfileRow = typeof paperProfiles.$inferSelect;

/** The catalogue's view of a stored profile: where the app fetches it, and its key. */
export const iccProfileAnswer = (row: Pick<PaperProfileRow, 'key' | 'name' | 'colourSpace'>): PaperIccProfile => ({
  url: `${API_PREFIX}${routePath(API.paperProfileFile, { file: paperProfileFileName(row.key) })}`,
  key: row.key,
  name: row.name,
  colour_space: row.colourSpace as PaperIccProfile['colour_space'],
});

/**
 * Checks a profile and stores it under its content's key; throws a 422 with the reason, having
 * kept nothing, when it is refused. The same bytes again are the same object and row.
 */
export async function storePaperProfile(deps: { db: Db | Tx; storage: Storage }, bytes: Buffer, name: string): Promise<PaperProfileRow> {
  const check = checkPaperProfile(bytes);
  if (!check.ok) throw validationError(check.reason);
  const key = paperProfileKey(createHash('sha256').update(bytes).digest('hex'));
  const [known] = await deps.db.select().from(paperProfiles).where(eq(paperProfiles.key, key));
  if (known) return known;
  // The object first: a row never names a file that is not there. A file left by a failed insert
  // is the same bytes the next attempt stores under the same key.
  await deps.storage.put(key, bytes, PAPER_PROFILE_CONTENT_TYPE);
  const [row] = await deps.db
    .insert(paperProfiles)
    .values({ key, name, colourSpace: check.profile.colourSpace, sizeBytes: bytes.length })
    .onConflictDoNothing()
    .returning();
  return row ?? (await deps.db.select().from(paperProfiles).where(eq(paperProfiles.key, key)))[0]!;
}

/**
 * PUT /papers/:paper_guid/icc_profile: an admin attaches a profile to a paper of the active
 * catalogue. The catalogue's revision moves, so every API process serves the new answer.
 */
export async function attachPaperProfile(
  deps: Pick<ServerDeps, 'db' | 'storage'>,
  actor: Actor | null,
  paperGuid: string,
  input: { file_name: string; profile: string },
): Promise<{ data: PaperIccProfile }> {
  requireAdmin(actor);
  const [paper] = await deps.db
    .select({ guid: papers.guid, catalogueId: papers.catalogueId })
    .from(papers)
    .innerJoin(catalogues, and(eq(catalogues.id, papers.catalogueId), eq(catalogues.active, true)))
    .where(eq(papers.guid, paperGuid));
  if (!paper) throw notFound('This paper is not in the catalogue.');
  const stored = await storePaperProfile(deps, Buffer.from(input.profile, 'base64'), input.file_name);
  await deps.db.transaction(async (tx) => {
    await tx.update(papers).set({ iccProfileKey: stored.key }).where(eq(papers.guid, paper.guid));
    await tx.update(catalogues).set({ revision: sql`${catalogues.revision} + 1` }).where(eq(catalogues.id, paper.catalogueId));
  });
  return { data: iccProfileAnswer(stored) };
}

/** A stored profile by the file name of its URL, or 404: only profiles the lab attached are served. */
export async function paperProfileByFile(db: Db, file: string): Promise<PaperProfileRow> {
  const key = `paper-profiles/${file}`;
  if (!PAPER_PROFILE_KEY.test(key)) throw notFound('There is no such profile.');
  const [row] = await db.select().from(paperProfiles).where(eq(paperProfiles.key, key));
  if (!row) throw notFound('There is no such profile.');
  return row;
}
