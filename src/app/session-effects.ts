import { useSession } from '../api/session.ts';
import { afterFirstScreen } from '../offline/after-first-screen.ts';

/** When a session ends (logout, a 401, another tab), this device forgets that user's data. */
export function clearUserDataOnSignOut(): void {
  useSession.subscribe((state, previous) => {
    if (previous.session && !state.session) {
      // Loaded on demand: IndexedDB's code stays out of the first download (/login needs none).
      import('../offline/clear-user-data.ts')
        .then(({ clearUserData }) => clearUserData())
        .catch((err: unknown) => console.error('could not clear user data', err));
    }
  });
}

/**
 * Sends the changes kept on this device (the outbox) while someone is signed in: from the moment
 * one waits (at once when the app opens with changes kept, else with the first change made), then
 * as changes are made and connections return. The sender is loaded on demand: a signed-in screen
 * with nothing to send (most opens of /lab-orders) never downloads it, and /login needs none of
 * it. The waiting count it watches is the one the sync indicator already follows; it is first
 * read once the first screen is shown (IndexedDB's code and its opening are no part of what the
 * user came to see, and a change kept from before waits that long at most).
 */
export function sendChangesWhileSignedIn(): void {
  let started = false;
  let stopWatching: (() => void) | null = null;
  const start = () => {
    if (started) return;
    started = true;
    stopWatching?.();
    import('../offline/outbox-sync.ts')
      .then(({ startOutboxSync }) => startOutboxSync())
      .catch((err: unknown) => {
        started = false;
        console.error('could not start sending changes', err);
      });
  };
  // Each watch() supersedes the ones before it, even those still waiting for the first screen.
  let watches = 0;
  const watch = () => {
    const s = useSession.getState();
    const owner = s.actingAs?.email ?? s.session?.email;
    const n = ++watches;
    stopWatching?.();
    stopWatching = null;
    if (started || !owner) return;
    afterFirstScreen()
      .then(() => import('../offline/waiting-work.ts'))
      .then(({ watchWaitingWork }) => {
        if (started || n !== watches) return;
        stopWatching = watchWaitingWork(owner, (work) => work.changes > 0 && start());
      })
      .catch((err: unknown) => console.error('could not follow waiting changes', err));
  };
  useSession.subscribe((state, previous) => {
    if (state.session?.email !== previous.session?.email || state.actingAs?.email !== previous.actingAs?.email) watch();
  });
  watch();
}
