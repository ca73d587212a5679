import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { perDatabase } from '../db/prepared.ts';
import { catalogues } from '../db/schema.ts';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

// An answer is compressed once per catalogue version, in zlib's thread pool (never on the
// request thread), so the smallest files are worth the slowest settings.
const BROTLI_QUALITY = constants.BROTLI_MAX_QUALITY;
const GZIP_LEVEL = constants.Z_BEST_COMPRESSION;
// Characters of the ETag's content hash (base64url of SHA-256): 120 bits.
const ETAG_LENGTH = 20;

/** One catalogue answer, serialised and compressed once, with its strong validator. */
export interface CachedAnswer {
  /** The content hash the ETag is made of: the same bytes give the same ETag in every process. */
  etag: string;
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export interface CatalogueCache {
  /**
   * The answer `name` for the active catalogue: built by `build` once per catalogue version and
   * kept in memory until another catalogue becomes active (npm run catalogue:load, or another API
   * process loading one) or the active one is revised (a paper's profile attached). Costs one indexed query per call to learn the active version.
   */
  answer(name: string, build: () => Promise<unknown>): Promise<CachedAnswer>;
}

async function encode(data: unknown): Promise<CachedAnswer> {
  const body = Buffer.from(JSON.stringify(data));
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
    gzipped(body, { level: GZIP_LEVEL }),
  ]);
  return { etag: createHash('sha256').update(body).digest('base64url').slice(0, ETAG_LENGTH), body, br, gzip: gz };
}

/** The active catalogue's version: its id, load time and revision ('none' before any is loaded). */
const activeCatalogue = perDatabase((db) =>
  db
    .select({ id: catalogues.id, loadedAt: catalogues.loadedAt, revision: catalogues.revision })
    .from(catalogues)
    .where(eq(catalogues.active, true))
    .limit(1)
    .prepare('active_catalogue'),
);
async function activeVersion(db: Db): Promise<string> {
  const [row] = await activeCatalogue(db).execute();
  return row ? `${row.id}@${row.loadedAt.toISOString()}#${row.revision}` : 'none';
}

/**
 * The catalogue is immutable per version, so its answers are computed once per version. The
 * ETag is a hash of the answer itself: a catalogue reloaded, or an answer whose shape changed in a
 * new release, gets a new one, and two API processes give the same one.
 */
export function createCatalogueCache(db: Db): CatalogueCache {
  let version: string | null = null;
  let answers = new Map<string, Promise<CachedAnswer>>();
  return {
    async answer(name, build) {
      const current = await activeVersion(db);
      if (current !== version) {
        version = current;
        answers = new Map();
      }
      const kept = answers.get(name);
      if (kept) return kept;
      // Concurrent first calls share one build; a failed build (a 404) is not kept.
      const built = build().then(encode);
      const forVersion = answers;
      forVersion.set(name, built);
      built.catch(() => forVersion.delete(name));
      return built;
    },
  };
}
