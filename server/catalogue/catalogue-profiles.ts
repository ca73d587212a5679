import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { PAPER_PROFILE_MAX_BYTES } from '../../src/domain/paper-profile.ts';
import type { LittleCms } from '../adapters/colour/little-cms.ts';
import type { Storage } from '../adapters/storage/storage.ts';
import type { Db } from '../db/client.ts';
import { checkPaperProfile, type CheckedProfile } from '../services/paper-profile-check.ts';
import { keepPaperProfile } from '../services/paper-profile-service.ts';
import { parseCatalogueFile, type CatalogueFile } from './catalogue-file.ts';
import { loadCatalogue } from './load-catalogue.ts';

/** What loading a catalogue file needs: its database, the object store, and LittleCMS for the profiles' check. */
export interface CatalogueLoadDeps {
  db: Db;
  storage: Storage;
  littleCms: LittleCms;
}

/**
 * The ICC profiles a catalogue file names (each paper's `icc_profile`, a path relative to the
 * file): every one is read and checked (LittleCMS included, as an admin's upload) before any is
 * stored, so a bad one stops the load with its paper and reason and nothing is kept. Answers the
 * stored key by paper name.
 */
export async function storeCatalogueProfiles(deps: CatalogueLoadDeps, catalogue: CatalogueFile, catalogueDir: string): Promise<Map<string, string>> {
  const files: { paper: string; name: string; bytes: Buffer; profile: CheckedProfile }[] = [];
  const problems: string[] = [];
  for (const paper of catalogue.papers) {
    if (!paper.icc_profile) continue;
    const path = resolve(catalogueDir, paper.icc_profile);
    let bytes: Buffer;
    try {
      // The size first: a huge file named by mistake is refused without being read.
      if ((await stat(path)).size > PAPER_PROFILE_MAX_BYTES) {
        problems.push(`${paper.name}: ${paper.icc_profile} is larger than ${PAPER_PROFILE_MAX_BYTES / (1024 * 1024)} MB.`);
        continue;
      }
      bytes = await readFile(path);
    } catch (err) {
      problems.push(`${paper.name}: ${paper.icc_profile} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}).`);
      continue;
    }
    const check = checkPaperProfile(bytes, await deps.littleCms());
    if (check.ok) files.push({ paper: paper.name, name: paper.icc_profile.slice(paper.icc_profile.lastIndexOf('/') + 1), bytes, profile: check.profile });
    else problems.push(`${paper.name}: ${paper.icc_profile}: ${check.reason}`);
  }
  if (problems.length) throw new Error(`The catalogue's ICC profiles are not valid:\n${problems.join('\n')}`);
  const keys = new Map<string, string>();
  for (const file of files) keys.set(file.paper, (await keepPaperProfile(deps, file.bytes, file.name, file.profile)).key);
  return keys;
}

/** npm run catalogue:load: a catalogue file and the profiles it names, loaded as the active catalogue. */
export async function loadCatalogueFile(deps: CatalogueLoadDeps, path: string) {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new Error(err instanceof SyntaxError ? `${path} is not valid JSON: ${err.message}` : `${path} cannot be read: ${String(err)}`, { cause: err });
  }
  const catalogue = parseCatalogueFile(json);
  const profiles = await storeCatalogueProfiles(deps, catalogue, dirname(path));
  return { catalogue, profiles: profiles.size, ...(await loadCatalogue(deps.db, catalogue, profiles)) };
}
