/**
 * What screens use of the upload queue: choose photos, start, pause, resume, retry, remove. One
 * queue per signed-in owner and one tab sending at a time (a Web Lock): two tabs sending the same
 * photos would send them twice. The other tab shows the stored states and takes over when the
 * sending tab closes.
 */
import { useSession } from '../../api/session.ts';
import { labDb } from '../../offline/db.ts';
import { UploadQueue } from './upload-queue.ts';
import { labReachability } from './upload-reachability.ts';
import { dismissRejections, type QueueFilesResult } from '../shared/upload-store.ts';
import { queueFilesInWorker, uploadWorker, workerSender } from './upload-worker-bridge.ts';

const LOCK_NAME = 'print-lab-upload-queue';

let current: UploadQueue | null = null;

/** The owner's queue, started (or waiting for the lock another tab holds). */
export function startUploadQueue(owner: string): UploadQueue {
  if (current && current.owner === owner && !current.stopped) {
    current.kick();
    return current;
  }
  current?.stop();
  const queue = new UploadQueue(owner, { db: labDb, worker: uploadWorker, sender: workerSender, reachability: labReachability });
  current = queue;
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) {
    queue.start();
  } else {
    locks
      .request(LOCK_NAME, async () => {
        if (queue.stopped) return;
        queue.start();
        await queue.finished;
      })
      .catch((err: unknown) => console.error('upload queue lock', err));
  }
  return queue;
}

export function stopUploadQueue(): void {
  current?.stop();
  current = null;
  uploadWorker.stop();
}

/** Keeps the chosen files (all or none, stored by the upload worker) and starts sending them. */
export async function addPhotos(owner: string, orderGuid: string, files: readonly File[]): Promise<QueueFilesResult> {
  // The queue starts on the first photos stored while the rest are being stored.
  const result = await queueFilesInWorker(owner, orderGuid, files, () => startUploadQueue(owner));
  if (result.ok) startUploadQueue(owner);
  return result;
}

export const forgetRejections = (owner: string, orderGuid: string) => dismissRejections(labDb, owner, orderGuid);

// Another user signs in, or this one signs out: their queue stops here and waits for them.
if (typeof window !== 'undefined') {
  useSession.subscribe((now, before) => {
    const owner = (s: typeof now) => s.actingAs?.email ?? s.session?.email ?? '';
    if (owner(now) !== owner(before) && current) stopUploadQueue();
  });
}
