/**
 * A queued photo's SHA-256, computed while the photo is sent rather than before (issue 32: the
 * first PUT used to wait for it). Kept with the photo's row as soon as it is known, so a reload
 * resumes with it; photograph_uploaded waits for it, so the lab still checks the stored photo
 * against what this device read.
 */
import type { LabDatabase, UploadEntry } from '../../offline/db.ts';
import { StepError } from './upload-step-kit.ts';

/** Errors that mean the stored photo itself cannot be read (its bytes are gone from the disk). */
const UNREADABLE = new Set(['NotReadableError', 'NotFoundError']);

export class ChecksumAlongside {
  #hashing: Promise<string> | null = null;

  constructor(
    private readonly deps: {
      db: LabDatabase;
      file: () => Promise<Blob>;
      hash: (file: Blob, signal: AbortSignal) => Promise<string>;
      signal: AbortSignal;
    },
  ) {}

  /** Starts hashing the photo unless its row has the checksum already. */
  start(entry: UploadEntry): void {
    if (entry.checksum || this.#hashing) return;
    const { db, file, hash, signal } = this.deps;
    const hashing = file().then(async (blob) => {
      const hex = await hash(blob, signal);
      await db.uploads.update(entry.id, { checksum: hex });
      return hex;
    });
    // Awaited where the checksum is needed, where its failure counts; until then it must not go unheard.
    hashing.catch(() => undefined);
    this.#hashing = hashing;
  }

  /** The photo's checksum: the row's, or the one on its way (started now if it was not). */
  async known(entry: UploadEntry): Promise<string> {
    if (entry.checksum) return entry.checksum;
    this.start(entry);
    try {
      return await (this.#hashing ?? Promise.reject(new Error('The checksum was not started.')));
    } catch (err) {
      // A failed hash is forgotten: the photo's next try reads it again.
      this.#hashing = null;
      if (err instanceof Error && UNREADABLE.has(err.name)) throw new StepError('fatal', `${entry.name} could not be read on this device. Retry, or remove it and choose it again.`);
      throw err;
    }
  }
}
