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
