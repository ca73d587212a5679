import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { paperProfileFileName, paperProfileKey, PAPER_PROFILE_KEY } from '../../src/domain/paper-profile.ts';
import type { PaperIccProfile } from '../../src/contract/catalogue.ts';
import { API, API_PREFIX, routePath } from '../../src/domain/paths.ts';
import type { Db, Tx } from '../db/client.ts';
import { catalogues, paperProfiles, papers } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, validationError } from '../http/errors.ts';
import { requireAdmin } from './admin-guard.ts';
import type { Actor } from './auth-service.ts';
import { checkPaperProfile, type CheckedProfile } from './paper-profile-check.ts';

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

type ProfileDeps = Pick<ServerDeps, 'storage' | 'littleCms'> & { db: Db | Tx };

/** Checks a profile's bytes (LittleCMS included); throws a 422 with the reason when it is refused. */
async function checked(deps: Pick<ServerDeps, 'littleCms'>, bytes: Buffer): Promise<CheckedProfile> {
  const check = checkPaperProfile(bytes, await deps.littleCms());
  if (!check.ok) throw validationError(check.reason);
  return check.profile;
}

/**
 * The row and object of checked bytes (checkPaperProfile's answer): found, or stored under their
 * content's key. Inside a
 * transaction the row is held (FOR SHARE) until it ends, so a removal of the same file waits, and
 * a removal that went first has taken the object too: it is stored again.
 */
export async function keepPaperProfile(deps: Pick<ServerDeps, 'storage'> & { db: Db | Tx }, bytes: Buffer, name: string, profile: CheckedProfile): Promise<PaperProfileRow> {
  const key = paperProfileKey(createHash('sha256').update(bytes).digest('hex'));
  const [known] = await deps.db.select().from(paperProfiles).where(eq(paperProfiles.key, key)).for('share');
  if (known) return known;
  // The object first: a row never names a file that is not there. A file left by a failed insert
  // is the same bytes the next attempt stores under the same key.
  await deps.storage.put(key, bytes, PAPER_PROFILE_CONTENT_TYPE);
  const [row] = await deps.db
    .insert(paperProfiles)
    .values({ key, name, colourSpace: profile.colourSpace, sizeBytes: bytes.length })
    .onConflictDoNothing()
    .returning();
  return row ?? (await deps.db.select().from(paperProfiles).where(eq(paperProfiles.key, key)))[0]!;
}

/**
 * Checks a profile and stores it under its content's key; throws a 422 with the reason, having
 * kept nothing, when it is refused. The same bytes again are the same object and row.
 */
export async function storePaperProfile(deps: ProfileDeps, bytes: Buffer, name: string): Promise<PaperProfileRow> {
  return keepPaperProfile(deps, bytes, name, await checked(deps, bytes));
}

/** A paper of the active catalogue with its profile's key, or 404. */
async function activePaper(db: Db, paperGuid: string) {
  const [paper] = await db
    .select({ guid: papers.guid, catalogueId: papers.catalogueId, iccProfileKey: papers.iccProfileKey })
    .from(papers)
    .innerJoin(catalogues, and(eq(catalogues.id, papers.catalogueId), eq(catalogues.active, true)))
    .where(eq(papers.guid, paperGuid));
  if (!paper) throw notFound('This paper is not in the catalogue.');
  return paper;
}

// The catalogue's revision moves with every change of a paper's profile: every API process then
// serves the new answer, and the apps refetch the catalogue.
const nextRevision = (tx: Tx, catalogueId: number) => tx.update(catalogues).set({ revision: sql`${catalogues.revision} + 1` }).where(eq(catalogues.id, catalogueId));

/** PUT /papers/:paper_guid/icc_profile: an admin attaches a profile to a paper of the active catalogue. */
export async function attachPaperProfile(
  deps: Pick<ServerDeps, 'db' | 'storage' | 'littleCms'>,
  actor: Actor | null,
  paperGuid: string,
  input: { file_name: string; profile: string },
): Promise<{ data: PaperIccProfile }> {
  requireAdmin(actor);
  const paper = await activePaper(deps.db, paperGuid);
  const bytes = Buffer.from(input.profile, 'base64');
  // LittleCMS's check runs outside the transaction: it is the slow part.
  const profile = await checked(deps, bytes);
  const stored = await deps.db.transaction(async (tx) => {
    const row = await keepPaperProfile({ db: tx, storage: deps.storage }, bytes, input.file_name, profile);
    await tx.update(papers).set({ iccProfileKey: row.key }).where(eq(papers.guid, paper.guid));
    await nextRevision(tx, paper.catalogueId);
    return row;
  });
  return { data: iccProfileAnswer(stored) };
}

/**
 * DELETE /papers/:paper_guid/icc_profile: an admin takes a paper's profile away (the builder then
 * offers no proof on it). The stored file goes with it unless another paper, of any catalogue,
 * still uses the same bytes. A paper without a profile is left as it is.
 */
export async function removePaperProfile(deps: Pick<ServerDeps, 'db' | 'storage'>, actor: Actor | null, paperGuid: string): Promise<{ success: true }> {
  requireAdmin(actor);
  const paper = await activePaper(deps.db, paperGuid);
  const key = paper.iccProfileKey;
  if (!key) return { success: true };
  await deps.db.transaction(async (tx) => {
    // Held until the end: an attach of the same bytes waits, then finds whether the file is kept.
    await tx.select({ key: paperProfiles.key }).from(paperProfiles).where(eq(paperProfiles.key, key)).for('update');
    await tx.update(papers).set({ iccProfileKey: null }).where(eq(papers.guid, paper.guid));
    await nextRevision(tx, paper.catalogueId);
    const [other] = await tx.select({ guid: papers.guid }).from(papers).where(eq(papers.iccProfileKey, key)).limit(1);
    if (other) return;
    await tx.delete(paperProfiles).where(eq(paperProfiles.key, key));
    // Inside the transaction, the row still locked: no attach can find the row without the file.
    await deps.storage.remove(key);
  });
  return { success: true };
}

/** A stored profile by the file name of its URL, or 404: only profiles the lab attached are served. */
export async function paperProfileByFile(db: Db, file: string): Promise<PaperProfileRow> {
  const key = `paper-profiles/${file}`;
  if (!PAPER_PROFILE_KEY.test(key)) throw notFound('There is no such profile.');
  const [row] = await db.select().from(paperProfiles).where(eq(paperProfiles.key, key));
  if (!row) throw notFound('There is no such profile.');
  return row;
}
