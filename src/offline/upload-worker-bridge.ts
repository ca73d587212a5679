/**
 * The one bridge to the upload worker (squoosh's worker-bridge pattern): the only module that
 * creates the worker or calls Comlink's wrap. The worker starts on the first call, not when this
 * module loads, so screens may import the queue freely; stop() ends it when the queue is idle.
 */
import { proxy, wrap, type Remote } from 'comlink';
import type { InspectResult, ProgressBatch, PutResult, UploadWorkerApi } from '../../workers/upload/protocol.ts';

export type { InspectResult, ProgressBatch, PutRequest, PutResult, ThumbnailResult } from '../../workers/upload/protocol.ts';

/** The worker as the queue uses it: its calls, plus the progress channel and a stop. */
export type UploadWorkerPort = Pick<UploadWorkerApi, 'inspect' | 'thumbnail' | 'sha256' | 'put'> & {
  abort(ids: string[]): Promise<void>;
  onProgress(listener: (batch: ProgressBatch) => void): () => void;
  stop(): void;
  readonly running: boolean;
};

class WorkerDied extends Error {
  constructor(detail: string) {
    super(`The upload worker stopped: ${detail}`);
    this.name = 'WorkerDied';
  }
}

let worker: Worker | null = null;
let remote: Remote<UploadWorkerApi> | null = null;
/** Rejects every pending call when the worker dies, since Comlink would wait for ever. */
let died: Promise<never> | null = null;
const listeners = new Set<(batch: ProgressBatch) => void>();

function start(): Remote<UploadWorkerApi> {
  if (remote && died) return remote;
  const w = new Worker(new URL('../../workers/upload-worker.ts', import.meta.url), { type: 'module', name: 'upload-worker' });
  died = new Promise<never>((_, reject) => {
    w.addEventListener('error', (e) => reject(new WorkerDied(e.message || 'it could not load')));
  });
  // Nobody may be waiting when it dies; the next call sees the rejection.
  died.catch(() => stopWorker());
  worker = w;
  remote = wrap<UploadWorkerApi>(w);
  void remote.setProgressListener(
    proxy((batch: ProgressBatch) => {
      for (const listener of listeners) listener(batch);
    }),
  );
  return remote;
}

function stopWorker(): void {
  worker?.terminate();
  worker = null;
  remote = null;
  died = null;
}

async function call<T>(send: (r: Remote<UploadWorkerApi>) => Promise<T>): Promise<T> {
  const r = start();
  const dead = died;
  return dead ? Promise.race([send(r), dead]) : send(r);
}

export const uploadWorker: UploadWorkerPort = {
  // Comlink's Remote spreads a union answer into a union of promises; the casts join it again.
  inspect: (file, name, side) => call((r) => r.inspect(file, name, side) as Promise<InspectResult>),
  thumbnail: (file, side, preferExif) => call((r) => r.thumbnail(file, side, preferExif)),
  sha256: (file) => call((r) => r.sha256(file)),
  put: (request) => call((r) => r.put(request) as Promise<PutResult>),
  abort: async (ids) => {
    if (remote) await remote.abort(ids);
  },
  onProgress(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  stop: stopWorker,
  get running() {
    return worker !== null;
  },
};
