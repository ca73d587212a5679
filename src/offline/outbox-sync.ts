/**
 * The page's side of sending changes: drains the signed-in owner's outbox when the app opens,
 * after every change, when the connection returns and when a backoff ends; keeps the token the
 * service worker needs to send while the app is closed; and asks for Background Sync whenever
 * changes are left waiting.
 */
import { labLineItemApi } from '../api/line-items.ts';
import { currentToken, useSession } from '../api/session.ts';
import { isOnline, useConnectivity, whenOnline } from './connectivity.ts';
import { labDb, type LabDatabase } from './db.ts';
import { currentOwner } from './current-owner.ts';
import { OUTBOX_SYNC_TAG } from './outbox-background.ts';
import { markSending } from './outbox-idle.ts';
import { drainOutbox, type DrainResult } from './outbox-drain.ts';

// The other side (another tab or the service worker) is draining: look again shortly, in case
// it stops before the end (the worker is stopped by the browser after a while).
const BUSY_RETRY_MS = 5_000;
// An unexpected failure (a bug, IndexedDB refusing a write): try again, not in a tight loop.
const ERROR_RETRY_MS = 30_000;


interface SyncRegistration {
  sync?: { register(tag: string): Promise<void> };
}

/** Asks the browser to wake the service worker once online (where Background Sync exists). */
async function askBackgroundSync(): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const registration = (await navigator.serviceWorker.getRegistration()) as (ServiceWorkerRegistration & SyncRegistration) | undefined;
  await registration?.sync?.register(OUTBOX_SYNC_TAG);
}

let running = false;
let again = false;
let timer: ReturnType<typeof setTimeout> | null = null;
let waitingForOnline = false;
function later(db: LabDatabase, ms: number): void {
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    kickOutbox(db);
  }, Math.max(0, ms));
}

function afterDrain(db: LabDatabase, result: DrainResult): void {
  if (result.status === 'done') return;
  if (result.status !== 'unauthorized') askBackgroundSync().catch(() => undefined);
  if (result.status === 'waiting') later(db, result.retryAt - Date.now());
  else if (result.status === 'busy') later(db, BUSY_RETRY_MS);
  else if (result.status === 'offline') waitForOnline(db);
}

function waitForOnline(db: LabDatabase): void {
  if (waitingForOnline) return;
  waitingForOnline = true;
  void whenOnline().then(() => {
    waitingForOnline = false;
    kickOutbox(db);
  });
}

/** Sends what waits, now if possible; repeated calls while a drain runs lead to one more pass. */
export function kickOutbox(db: LabDatabase = labDb): void {
  const owner = currentOwner();
  if (!owner) return;
  if (running) {
    again = true;
    return;
  }
  if (!isOnline(useConnectivity.getState())) {
    askBackgroundSync().catch(() => undefined);
    waitForOnline(db);
    return;
  }
  running = true;
  markSending(true);
  drainOutbox({ db, owner, calls: labLineItemApi }).then(
    (result) => {
      running = false;
      if (again) {
        again = false;
        kickOutbox(db);
      } else afterDrain(db, result);
      markSending(running);
    },
    (err: unknown) => {
      running = false;
      console.error('could not send waiting changes', err);
      later(db, ERROR_RETRY_MS);
      markSending(running);
    },
  );
}

/** Keeps the current owner's token for the service worker; nothing when signed out. */
async function keepCredential(db: LabDatabase): Promise<void> {
  const owner = currentOwner();
  const token = currentToken();
  if (owner && token) await db.syncCredentials.put({ owner, token });
}

/** Started once when the app opens: drain on open, on sign-in, on reconnecting. */
export function startOutboxSync(db: LabDatabase = labDb): () => void {
  const kick = () => {
    keepCredential(db).catch((err: unknown) => console.error('could not keep the sync token', err));
    kickOutbox(db);
  };
  const stopSession = useSession.subscribe((s, prev) => {
    if (s.session?.token !== prev.session?.token || s.actingAs?.token !== prev.actingAs?.token) kick();
  });
  const stopConnectivity = useConnectivity.subscribe((s, prev) => {
    if (isOnline(s) && !isOnline(prev)) kickOutbox(db);
  });
  // Leaving the app with changes still waiting (a drain cut short by closing the tab): the
  // service worker takes over once the browser next has a connection.
  const onHide = () => {
    if (document.visibilityState !== 'hidden') return;
    void db.outbox
      .where('owner')
      .equals(currentOwner())
      .count()
      .then((waiting) => (waiting > 0 ? askBackgroundSync() : undefined))
      .catch(() => undefined);
  };
  document.addEventListener('visibilitychange', onHide);
  kick();
  return () => {
    document.removeEventListener('visibilitychange', onHide);
    stopSession();
    stopConnectivity();
    if (timer !== null) clearTimeout(timer);
  };
}
