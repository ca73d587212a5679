import { useSession } from '../api/session.ts';

/** Whose changes are made and sent now: the photographer an admin acts as, else the user. */
export function currentOwner(): string {
  const { session, actingAs } = useSession.getState();
  return actingAs?.email ?? session?.email ?? '';
}
