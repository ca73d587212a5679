import { useSession } from '../api/session.ts';
import { clearUserData } from '../offline/cached-read.ts';

/** When a session ends (logout, a 401, another tab), this device forgets that user's data. */
export function clearUserDataOnSignOut(): void {
  useSession.subscribe((state, previous) => {
    if (previous.session && !state.session) {
      clearUserData().catch((err: unknown) => console.error('could not clear user data', err));
    }
  });
}
