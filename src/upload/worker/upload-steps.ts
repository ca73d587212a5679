/**
 * One queued photo's way to the order, from 'ready' to 'done' (src/upload/shared/upload-state.ts): the
 * create_presigned_url call, the PUT or the parts, complete_upload, photograph_uploaded. Each
 * step writes its outcome to IndexedDB before the next begins. The photo's SHA-256 is computed
 * alongside, from the first step on, and kept with the row; photograph_uploaded waits for it, so
 * the lab checks the stored photo against what this device read. Failures the file can handle
 * itself (a sealed key, a forgotten upload, expired URLs, a refusal) are handled here; waiting
 * for the connection and backing off from a busy server are the scheduler's
 * (src/upload/page/upload-queue.ts).
 */
import { ApiError } from '../../api/errors.ts';
import { partCount, partRange, partsForCompletion, missingParts, usesMultipart } from '../shared/multipart-plan.ts';
import { isDuplicate, isMultipart } from '../../api/lab-order-upload.ts';
import { MAX_URL_RENEWALS, classifyFailure } from '../shared/upload-retry.ts';
import type { UploadEntry } from '../../offline/db.ts';
import { newId } from '../../client-rules/ids.ts';
import { ChecksumAlongside } from './checksum-alongside.ts';
import { MAX_REKEYS, MAX_RESTARTS, STEP_ABORTED, freshKeyFor, StepError, stepErrorOf, worstFailure, type UploadEnv } from './upload-step-kit.ts';
import { finishUpload, failUpload, finishedParts, orderHasPhotoOfSize, recordPart, rejectUpload, restartUpload, updateUpload } from '../shared/upload-store.ts';
import type { PutResult } from '../shared/protocol.ts';

const abortError = () => new DOMException('The upload was paused or stopped.', STEP_ABORTED);

export class FileUploader {
  #entry: UploadEntry;
  readonly #env: UploadEnv;
  readonly #signal: AbortSignal;
  #file: Blob | null = null;
  readonly #checksum: ChecksumAlongside;
  /** Bytes in finished parts, and each request's bytes in flight. */
  #stored = 0;
  readonly #inFlight = new Map<string, number>();
  #renewals = 0;
  #restarts = 0;
  #rekeys = 0;

  constructor(entry: UploadEntry, env: UploadEnv, signal: AbortSignal) {
    this.#entry = entry;
    this.#env = env;
    this.#signal = signal;
    this.#checksum = new ChecksumAlongside({ db: env.db, file: () => this.#fileBlob(), hash: env.checksum, signal });
    signal.addEventListener('abort', () => void env.worker.abort([...this.#inFlight.keys()]), { once: true });
  }

  get id(): string {
    return this.#entry.id;
  }

  /**
   * Runs the file until it is done, rejected or failed ('gone': nothing to do, it left the queue or
   * waits for the user); throws StepError (offline, transient) or an abort.
   */
  async run(): Promise<'done' | 'rejected' | 'failed' | 'gone'> {
    // The scheduler may hold a row read a moment ago: go on from the row as it is now.
    const fresh = await this.#env.db.uploads.get(this.#entry.id);
    if (!fresh || fresh.state === 'failed' || fresh.paused) return 'gone';
    this.#entry = fresh;
    this.#checksum.start(fresh);
    for (;;) {
      if (this.#signal.aborted) throw abortError();
      try {
        const end = await this.#step();
        if (end) return end;
      } catch (err) {
        if (!(err instanceof StepError)) throw err;
        const end = await this.#handle(err);
        if (end) return end;
      }
    }
  }

  async #step(): Promise<'done' | null> {
    const e = this.#entry;
    switch (e.state) {
      case 'ready':
        return this.#presign();
      case 'uploading':
        await (e.uploadId ? this.#sendParts() : this.#sendSingle());
        return null;
      case 'completing':
        await this.#complete();
        return null;
      case 'confirming':
        return this.#confirm();
      default:
        throw new StepError('fatal', `This photo cannot be sent from state ${e.state}.`);
    }
  }

  /** Failures the file handles itself; the rest go up to the scheduler. */
  async #handle(err: StepError): Promise<'rejected' | 'failed' | null> {
    const { db } = this.#env;
    switch (err.action) {
      case 'refused':
        await rejectUpload(db, this.#entry, err.message);
        return 'rejected';
      case 'fatal':
        await failUpload(db, this.#entry, err.message);
        return 'failed';
      case 'sealed':
        this.#entry = await this.#save({ state: 'confirming', confirmKey: this.#entry.confirmKey ?? newId() });
        return null;
      case 'rekey':
        if (++this.#rekeys > MAX_REKEYS) {
          await failUpload(db, this.#entry, err.message);
          return 'failed';
        }
        this.#entry = await this.#save(freshKeyFor(this.#entry.state));
        return null;
      case 'gone':
      case 'expired': {
        const tooMany = err.action === 'gone' ? ++this.#restarts > MAX_RESTARTS : ++this.#renewals > MAX_URL_RENEWALS;
        if (tooMany) {
          await failUpload(db, this.#entry, `The storage keeps refusing the upload of ${this.#entry.name}. Try it again later.`);
          return 'failed';
        }
        // Expired part URLs were dropped where they failed; a single URL or a forgotten upload start afresh.
        if (err.action === 'gone' || !this.#entry.uploadId) await this.#restart();
        return null;
      }
      default:
        throw err;
    }
  }

  async #restart(): Promise<void> {
    if (this.#entry.uploadId) this.#env.urls.drop(this.#entry.uploadId);
    const fresh = await restartUpload(this.#env.db, this.#entry);
    if (!fresh) throw abortError();
    this.#entry = fresh;
    this.#stored = 0;
  }

  async #save(changes: Partial<UploadEntry>): Promise<UploadEntry> {
    const saved = await updateUpload(this.#env.db, this.#entry.id, changes);
    // Removed by the user meanwhile: nothing more to do for it.
    if (!saved) throw abortError();
    return saved;
  }

  async #fileBlob(): Promise<Blob> {
    if (this.#file) return this.#file;
    const stored = await this.#env.db.uploadFiles.get(this.#entry.id);
    if (!stored) throw new StepError('fatal', `${this.#entry.name} is no longer on this device. Remove it and choose it again.`);
    this.#file = stored.file;
    return stored.file;
  }

  async #presign(): Promise<'done' | null> {
    const { api, db, urls, now } = this.#env;
    const e = this.#entry;
    if (!e.contentType) throw new StepError('fatal', `${e.name} was not checked yet.`);
    const multipart = usesMultipart(e.size);
    // The checksum goes along when known (a photo started before), or is waited for when the order
    // has a photo of this very size (likely this one chosen again): the lab then answers a copy it
    // has without a byte sent. Any other photo goes at once; the lab keeps one copy of the same
    // bytes at confirmation anyway.
    const checksum = e.checksum ?? ((await orderHasPhotoOfSize(db, e.orderGuid, e.size)) ? await this.#checksum.known(e) : undefined);
    const body = {
      photo_file_name: e.name,
      content_type: e.contentType,
      size: e.size,
      ...(checksum ? { checksum } : {}),
      ...(multipart ? { multipart: true as const } : {}),
    };
    const answer = await api.createPhotoUpload(e.orderGuid, body, e.createKey).catch((err: unknown) => Promise.reject(stepErrorOf('api', err)));
    if (isDuplicate(answer)) {
      await finishUpload(db, e, answer.photograph);
      return 'done';
    }
    if (isMultipart(answer)) {
      if (!(answer.partSize > 0) || !answer.key) throw new StepError('fatal', 'The lab answered the upload request in a way this app does not understand.');
      urls.put(answer.uploadId, answer.parts, now());
      this.#entry = await this.#save({ state: 'uploading', uploadId: answer.uploadId, key: answer.key, partSize: answer.partSize });
    } else {
      if (!answer.signedUrl || !answer.key) throw new StepError('fatal', 'The lab answered the upload request in a way this app does not understand.');
      this.#entry = await this.#save({ state: 'uploading', key: answer.key, single: { signedUrl: answer.signedUrl, headers: answer.headers ?? {} } });
    }
    return null;
  }

  /**
   * One PUT of a byte range through the worker, holding one of the shared slots until `settle`
   * has written its outcome to IndexedDB: the next PUT starts only once this one is recorded, so
   * a reload, a crash or a dropped link can cost the PUTs in flight, never one already answered.
   */
  async #put<T>(url: string, headers: Record<string, string>, start: number, end: number, settle: (result: PutResult) => Promise<T>): Promise<T> {
    const { slots, worker, track } = this.#env;
    const release = await slots.acquire(this.#signal);
    try {
      if (this.#signal.aborted) throw abortError();
      const requestId = newId();
      track(requestId, this);
      this.#inFlight.set(requestId, 0);
      let result: PutResult;
      try {
        result = await worker.put({ id: requestId, url, headers, file: await this.#fileBlob(), start, end });
      } finally {
        this.#inFlight.delete(requestId);
        track(requestId, null);
      }
      if (!result.ok) {
        // The bytes of a PUT that did not get through no longer count as sent.
        this.#report();
        if (result.reason === 'aborted') throw abortError();
        if (result.reason === 'network' || result.reason === 'stalled') this.#env.onNoAnswer();
      }
      return await settle(result);
    } finally {
      release();
    }
  }

  /** Progress of one request, from the worker's batches. */
  onLoaded(requestId: string, loaded: number): void {
    if (!this.#inFlight.has(requestId)) return;
    this.#inFlight.set(requestId, loaded);
    this.#report();
  }

  #report(): void {
    let sent = this.#stored;
    for (const loaded of this.#inFlight.values()) sent += loaded;
    this.#env.onBytes(this.#entry.id, Math.min(sent, this.#entry.size), 'sending');
  }

  async #sendSingle(): Promise<void> {
    const e = this.#entry;
    if (!e.single) return this.#restart();
    await this.#put(e.single.signedUrl, e.single.headers, 0, e.size, async (result) => {
      if (!result.ok) throw new StepError(classifyFailure('storage', result), result.message ?? `The storage answered ${result.status}.`);
      this.#entry = await this.#save({ state: 'confirming', confirmKey: e.confirmKey ?? newId() });
      this.#env.onProgressMade(e.id);
      this.#stored = e.size;
      this.#report();
    });
  }

  async #sendParts(): Promise<void> {
    const { db, api, urls, now } = this.#env;
    const e = this.#entry;
    const uploadId = e.uploadId ?? '';
    const partSize = e.partSize ?? 0;
    const count = partCount(e.size, partSize);
    const done = await finishedParts(db, e);
    this.#stored = done.reduce((sum, p) => sum + p.size, 0);
    this.#report();
    const missing = missingParts(count, done.map((p) => p.partNumber));
    if (!missing.length) {
      this.#entry = await this.#save({ state: 'completing', completeKey: e.completeKey ?? newId() });
      return;
    }
    const unsigned = missing.filter((n) => !urls.get(uploadId, n, now()));
    if (unsigned.length) {
      // A fresh key each time: a replayed answer would hand back the old, expired URLs.
      const fresh = await api.renewPartUrls(e.orderGuid, uploadId, unsigned, newId()).catch((err: unknown) => Promise.reject(stepErrorOf('renew', err)));
      urls.put(uploadId, fresh.parts, now());
    }
    const outcomes = await Promise.allSettled(missing.map((n) => this.#sendPart(n, uploadId, partSize)));
    const worst = worstFailure(outcomes);
    if (worst) throw worst;
  }

  async #sendPart(partNumber: number, uploadId: string, partSize: number): Promise<void> {
    const { db, urls, now } = this.#env;
    const e = this.#entry;
    const signed = urls.get(uploadId, partNumber, now());
    if (!signed) throw new StepError('expired', 'The part URL expired before it was used.');
    const { start, end } = partRange(e.size, partSize, partNumber);
    await this.#put(signed.signedUrl, signed.headers ?? {}, start, end, async (result) => {
      if (!result.ok) {
        const action = classifyFailure('storage', result);
        if (action === 'expired') urls.drop(uploadId, partNumber);
        throw new StepError(action, result.message ?? `The storage answered ${result.status}.`);
      }
      if (!result.etag) throw new StepError('fatal', 'The storage kept a part without saying its ETag (its CORS rule must expose ETag).');
      await recordPart(db, { entryId: e.id, partNumber, etag: result.etag, uploadId, size: end - start });
      this.#stored += end - start;
      this.#renewals = 0;
      this.#env.onProgressMade(e.id);
      this.#report();
    });
  }

  async #complete(): Promise<void> {
    const { db, api, urls } = this.#env;
    const e = this.#entry;
    const count = partCount(e.size, e.partSize ?? 0);
    const done = await finishedParts(db, e);
    if (missingParts(count, done.map((p) => p.partNumber)).length) {
      this.#entry = await this.#save({ state: 'uploading' });
      return;
    }
    this.#env.onBytes(e.id, e.size, 'processing');
    const body = { uploadId: e.uploadId ?? '', parts: partsForCompletion(done, count) };
    const answer = await api.completeUpload(e.orderGuid, body, e.completeKey ?? newId()).catch((err: unknown) => {
      const failure = stepErrorOf('renew', err);
      // Storage does not have the parts this device recorded (a 400 such as S3's InvalidPart):
      // the only way on is to send the photo again.
      return Promise.reject(err instanceof ApiError && err.status === 400 ? new StepError('gone', failure.message) : failure);
    });
    urls.drop(body.uploadId);
    this.#entry = await this.#save({ state: 'confirming', key: answer.key || e.key, confirmKey: e.confirmKey ?? newId() });
  }

  async #confirm(): Promise<'done'> {
    const { db, api } = this.#env;
    const e = this.#entry;
    this.#env.onBytes(e.id, e.size, 'processing');
    const body = { key: e.key ?? '', photo_file_name: e.name, checksum: await this.#checksum.known(e), size: e.size };
    const answer = await api.confirmPhotograph(e.orderGuid, body, e.confirmKey ?? newId()).catch((err: unknown) => Promise.reject(stepErrorOf('api', err)));
    await finishUpload(db, e, answer.data);
    return 'done';
  }
}
