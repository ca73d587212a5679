import { useSession } from '../api/session.ts';

/** When a session ends (logout, a 401, another tab), this device forgets that user's data. */
export function clearUserDataOnSignOut(): void {
  useSession.subscribe((state, previous) => {
    if (previous.session && !state.session) {
      // Loaded on demand: IndexedDB's code stays out of the first download (/login needs none).
      import('../offline/cached-read.ts')
        .then(({ clearUserData }) => clearUserData())
        .catch((err: unknown) => console.error('could not clear user data', err));
    }
  });
}

/**
 * Sends the changes kept on this device (the outbox) while someone is signed in: at once when the
 * app opens, then as changes are made and connections return. Loaded on demand, like the above:
 * /login needs none of it; once loaded it follows sign-ins by itself.
 */
export function sendChangesWhileSignedIn(): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    import('../offline/outbox-sync.ts')
      .then(({ startOutboxSync }) => startOutboxSync())
      .catch((err: unknown) => {
        started = false;
        console.error('could not start sending changes', err);
      });
  };
  if (useSession.getState().session) start();
  else {
    const stop = useSession.subscribe((state) => {
      if (!state.session) return;
      stop();
      start();
    });
  }
}
