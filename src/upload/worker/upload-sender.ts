/**
 * The sending loop of the upload queue: runs one photo's steps (upload-steps.ts) from 'ready' to
 * 'done' with the PUT slots and part URLs every file shares. In the app it runs inside the upload
 * worker (worker-api.ts), so choosing each part, its PUT, recording it in IndexedDB, renewing
 * part URLs, complete_upload and photograph_uploaded never wait for the page's thread, and a busy
 * page never leaves a PUT slot idle. The page's scheduler (src/upload/page/upload-queue.ts) hands
 * it whole files and hears back the outcome and throttled progress. The unit tests run the same
 * class in-process.
 */
import type { LabDatabase, UploadEntry } from '../../offline/db.ts';
import type { UploadApiPort } from './upload-api-port.ts';
import { MAX_PARTS_IN_FLIGHT, Slots } from '../shared/upload-slots.ts';
import { PartUrls, STEP_ABORTED, StepError, type LoadListener, type PutPort, type UploadEnv } from './upload-step-kit.ts';
import { FileUploader } from './upload-steps.ts';
import type { SendOutcome, SenderHooks, SenderPort } from '../shared/protocol.ts';

export interface SenderDeps {
  db: LabDatabase;
  api: UploadApiPort;
  worker: PutPort;
  /** SHA-256 of a Blob, hex: in the worker WebCrypto's (checksum.ts). */
  sha256(file: Blob): Promise<string>;
  now?: () => number;
}

/**
 * Photos hashed at once while they are sent. Each hash reads its photo whole (up to 64 MiB,
 * checksum.ts), so two bound the worker's memory at two photos' bytes, as the
 * checks did when they hashed; hashing runs far ahead of a link that sends a photo at a time.
 */
export const CHECKSUMS_AT_ONCE = 2;

const NO_HOOKS: SenderHooks = { onBytes: () => {}, onProgressMade: () => {}, onNoAnswer: () => {} };

export class Sender implements SenderPort {
  readonly #env: UploadEnv;
  readonly #requests = new Map<string, LoadListener>();
  readonly #running = new Map<string, AbortController>();
  #hooks: SenderHooks = NO_HOOKS;

  constructor(deps: SenderDeps) {
    const now = deps.now ?? Date.now;
    const hashing = new Slots(CHECKSUMS_AT_ONCE);
    deps.worker.onProgress((batch) => {
      for (const [requestId, loaded] of batch) this.#requests.get(requestId)?.onLoaded(requestId, loaded);
    });
    this.#env = {
      db: deps.db,
      api: deps.api,
      worker: deps.worker,
      slots: new Slots(MAX_PARTS_IN_FLIGHT),
      urls: new PartUrls(),
      now,
      checksum: async (file, signal) => {
        const release = await hashing.acquire(signal);
        try {
          return await deps.sha256(file);
        } finally {
          release();
        }
      },
      track: (requestId, file) => (file ? this.#requests.set(requestId, file) : this.#requests.delete(requestId)),
      onBytes: (id, sent, phase) => this.#hooks.onBytes(id, sent, phase),
      onProgressMade: (id) => this.#hooks.onProgressMade(id),
      onNoAnswer: () => this.#hooks.onNoAnswer(),
    };
  }

  listen(hooks: SenderHooks): () => void {
    this.#hooks = hooks;
    return () => {
      if (this.#hooks === hooks) this.#hooks = NO_HOOKS;
    };
  }

  async run(entry: UploadEntry): Promise<SendOutcome> {
    // One run per file: a second call while it runs (a scheduler restarted) waits for nothing new.
    this.#running.get(entry.id)?.abort();
    const ctrl = new AbortController();
    this.#running.set(entry.id, ctrl);
    try {
      return { kind: 'end', end: await new FileUploader(entry, this.#env, ctrl.signal).run() };
    } catch (err) {
      if (err instanceof DOMException && err.name === STEP_ABORTED) return { kind: 'aborted' };
      if (err instanceof StepError) return { kind: 'step', action: err.action, message: err.message };
      console.error('upload', err);
      return { kind: 'bug', message: err instanceof Error ? err.message : String(err) };
    } finally {
      if (this.#running.get(entry.id) === ctrl) this.#running.delete(entry.id);
    }
  }

  abort(entryIds: readonly string[]): void {
    for (const id of entryIds) this.#running.get(id)?.abort();
  }
}
