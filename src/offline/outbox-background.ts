/**
 * Background Sync: the service worker sends every signed-in owner's waiting changes while the app
 * is closed, with the same drain as the page (outbox-drain.ts). Safe in a worker.
 */
import { lineItemCalls, type Requester } from '../api/line-item-calls.ts';
import type { LabDatabase } from './db.ts';
import { drainOutbox } from './outbox-drain.ts';

/** The tag the page registers when changes wait and the worker's 'sync' event carries. */
export const OUTBOX_SYNC_TAG = 'print-lab-outbox';

/**
 * Drains each owner that has a token on this device. True when nothing is left for the worker
 * to do (all sent, the page's drain is running, or the owner must sign in again); false asks the
 * browser to fire the sync again later, with its own backoff.
 */
export async function drainEveryOwner(db: LabDatabase, requesterFor: (token: string) => Requester): Promise<boolean> {
  let finished = true;
  for (const credential of await db.syncCredentials.toArray()) {
    if ((await db.outbox.where('owner').equals(credential.owner).count()) === 0) continue;
    const result = await drainOutbox({ db, owner: credential.owner, calls: lineItemCalls(requesterFor(credential.token)) });
    // A dead token cannot send anything: the changes wait for their owner to sign in again.
    if (result.status === 'unauthorized') await db.syncCredentials.delete(credential.owner);
    if (result.status === 'offline' || result.status === 'waiting') finished = false;
  }
  return finished;
}
