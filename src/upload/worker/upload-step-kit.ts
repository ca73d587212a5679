/**
 * What a file's steps (upload-steps.ts) and the sender (upload-sender.ts) share: the environment
 * the sender gives each file, the failure a step reports, the signed part URLs kept in memory,
 * the PUTs' port, and how an API error becomes a step's failure.
 */
import { ApiError } from '../../api/errors.ts';
import type { SignedPart } from '../../api/lab-order-upload.ts';
import { classifyFailure, type FailureAction, type StepKind } from '../shared/upload-retry.ts';
import type { LabDatabase, UploadEntry } from '../../offline/db.ts';
import { newId } from '../../client-rules/ids.ts';
import type { UploadApiPort } from './upload-api-port.ts';
import type { Slots } from '../shared/upload-slots.ts';
import type { ProgressBatch, PutRequest, PutResult } from '../shared/protocol.ts';

/** The PUTs themselves: in the worker its own XHR code (put.ts), in tests a fake. */
export interface PutPort {
  /** One PUT of a byte range to a signed URL, with progress through onProgress. */
  put(request: PutRequest): Promise<PutResult>;
  abort(ids: string[]): void | Promise<void>;
  /** Batches of every request's bytes, a few times a second. */
  onProgress(listener: (batch: ProgressBatch) => void): () => void;
}

/** A file with a request under way: the worker's progress batches reach it. */
export interface LoadListener {
  onLoaded(requestId: string, loaded: number): void;
}

/** What the sender gives each file's steps: the ports, the shared slots and URLs, its callbacks. */
export interface UploadEnv {
  db: LabDatabase;
  api: UploadApiPort;
  worker: PutPort;
  slots: Slots;
  urls: PartUrls;
  now(): number;
  /** SHA-256 of a stored photo, hex, a few at a time (Sender's CHECKSUMS_AT_ONCE). */
  checksum(file: Blob, signal: AbortSignal): Promise<string>;
  /** A request to storage starts or ends: progress batches name it. */
  track(requestId: string, file: LoadListener | null): void;
  /** Bytes of this file in storage or on their way. */
  onBytes(entryId: string, sent: number, phase: 'sending' | 'processing'): void;
  /** Something got through: the file's failure counters start again. */
  onProgressMade(entryId: string): void;
  /** A PUT got no answer at all: the link, not the file, is the likely trouble. */
  onNoAnswer(): void;
}


/** A failure the scheduler decides about, with the words for the user. */
export class StepError extends Error {
  constructor(
    readonly action: FailureAction,
    message: string,
  ) {
    super(message);
    this.name = 'StepError';
  }
}

export const STEP_ABORTED = 'AbortError';

/**
 * Part URLs live 15 minutes (contract). One older than 10 minutes is renewed before use rather
 * than risk sending 5+ MiB to a URL that expires on the way.
 */
export const URL_FRESH_MS = 10 * 60_000;

/** A forgotten upload may start again twice; a third time is a bug, not bad luck. */
export const MAX_RESTARTS = 2;

/** A new key is never another sign-in's: refused again, twice, it is a bug of the lab's, not a race. */
export const MAX_REKEYS = 2;

/**
 * A new idempotency key for the call the file waits on, the lab having refused the old one as
 * another sign-in's. Asking for fresh part URLs already takes a new key each time.
 */
export function freshKeyFor(state: UploadEntry['state']): Partial<UploadEntry> {
  if (state === 'ready') return { createKey: newId() };
  if (state === 'completing') return { completeKey: newId() };
  if (state === 'confirming') return { confirmKey: newId() };
  return {};
}

/** Signed part URLs of the uploads under way, in memory only (they expire anyway). */
export class PartUrls {
  readonly #byUpload = new Map<string, Map<number, { part: SignedPart; at: number }>>();

  put(uploadId: string, parts: readonly SignedPart[], now: number): void {
    const known = this.#byUpload.get(uploadId) ?? new Map<number, { part: SignedPart; at: number }>();
    for (const part of parts) known.set(part.partNumber, { part, at: now });
    this.#byUpload.set(uploadId, known);
  }

  get(uploadId: string, partNumber: number, now: number): SignedPart | null {
    const found = this.#byUpload.get(uploadId)?.get(partNumber);
    return found && now - found.at < URL_FRESH_MS ? found.part : null;
  }

  drop(uploadId: string, partNumber?: number): void {
    if (partNumber === undefined) this.#byUpload.delete(uploadId);
    else this.#byUpload.get(uploadId)?.delete(partNumber);
  }
}

const words = (err: ApiError) => err.message || (err.status ? `The lab answered ${err.status}.` : 'The lab could not be reached.');

/** An API call's failure as the step sees it. */
export function stepErrorOf(kind: StepKind, err: unknown): StepError {
  if (!(err instanceof ApiError)) throw err;
  const status = err.kind === 'network' ? 0 : (err.status ?? 0);
  return new StepError(classifyFailure(kind, { status, className: err.className, message: err.message }), words(err));
}


/** The worse of a parallel set of part failures decides: a refusal beats a retry, etc. */
const SEVERITY: FailureAction[] = ['refused', 'fatal', 'gone', 'sealed', 'rekey', 'transient', 'busy', 'offline', 'expired'];

/** Of a parallel set of parts, the failure to act on: an abort first, then a bug, then the worst StepError. */
export function worstFailure(outcomes: readonly PromiseSettledResult<unknown>[]): unknown {
  const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  const aborted = failures.find((f) => f instanceof DOMException && f.name === STEP_ABORTED);
  if (aborted) return aborted;
  const other = failures.find((f) => !(f instanceof StepError));
  if (other) return other;
  const steps = [...(failures as StepError[])].sort((a, b) => SEVERITY.indexOf(a.action) - SEVERITY.indexOf(b.action));
  return steps[0] ?? null;
}
