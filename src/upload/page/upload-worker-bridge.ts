/**
 * The one bridge to the upload worker (squoosh's worker-bridge pattern): the only module that
 * creates the worker or calls Comlink's wrap. The worker starts on the first call, not when this
 * module loads, so screens may import the queue freely; stop() ends it when the queue is idle.
 */
import { proxy, wrap, type Remote } from 'comlink';
import { sessionRefusedElsewhere } from '../../api/client.ts';
import { reportError } from '../../api/error-reports.ts';
import { currentToken } from '../../api/session.ts';
import type { InspectResult, SendEvents, SendOutcome, SenderHooks, SenderPort, UploadWorkerApi } from '../shared/protocol.ts';
import type { QueueFilesResult } from '../shared/upload-store.ts';

/** The worker's checks as the queue uses them, plus a stop. Sending is workerSender's. */
export type UploadWorkerPort = Pick<UploadWorkerApi, 'inspect' | 'thumbnail' | 'sha256' | 'check'> & {
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
let hooks: SenderHooks | null = null;

/** One batch of the worker's sender, handed to the queue's hooks. */
function deliver(events: SendEvents): void {
  if (events.unauthorized) sessionRefusedElsewhere(events.unauthorized);
  for (const [message, tags] of events.faults) reportError(new Error(message), { ...tags, from: 'upload worker' });
  if (!hooks) return;
  for (const [id, sent, phase] of events.bytes) hooks.onBytes(id, sent, phase);
  for (const id of events.progressMade) hooks.onProgressMade(id);
  if (events.noAnswer) hooks.onNoAnswer();
}

function start(): Remote<UploadWorkerApi> {
  if (remote && died) return remote;
  const w = new Worker(new URL('../../../workers/upload-worker.ts', import.meta.url), { type: 'module', name: 'upload-worker' });
  died = new Promise<never>((_, reject) => {
    w.addEventListener('error', (e) => reject(new WorkerDied(e.message || 'it could not load')));
  });
  // Nobody may be waiting when it dies; the next call sees the rejection.
  died.catch(() => stopWorker());
  worker = w;
  remote = wrap<UploadWorkerApi>(w);
  void remote.setSendListener(proxy(deliver));
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
  check: (entry) => call((r) => r.check(entry)),
  stop: stopWorker,
  get running() {
    return worker !== null;
  },
};

/**
 * Chosen files into the queue, stored by the worker (its IndexedDB connection, not the page's
 * thread); `onStored` runs on the page after each group of them is stored.
 */
export const queueFilesInWorker = (owner: string, orderGuid: string, files: readonly File[], onStored: () => void): Promise<QueueFilesResult> =>
  call((r) => r.queueFiles(owner, orderGuid, [...files], proxy(onStored)) as Promise<QueueFilesResult>);

/**
 * The sending loop, run in the worker (src/upload/worker/send.ts): the page hands it whole files
 * with the session's token and hears back outcomes and batched progress, nothing per part.
 */
export const workerSender: SenderPort = {
  run: (entry) => call((r) => r.send(entry, currentToken()) as Promise<SendOutcome>),
  abort(ids) {
    if (remote) void remote.abortSends([...ids]);
  },
  listen(next) {
    hooks = next;
    return () => {
      if (hooks === next) hooks = null;
    };
  },
};
