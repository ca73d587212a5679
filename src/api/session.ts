import { create } from 'zustand';
import type { SessionAnswer } from '../contract/session.ts';
import { isLabAdmin, readStoredSession, SESSION_KEYS, type ActingAs, type Session } from './stored-session.ts';

export type { SessionAnswer };

// The page's session (the app shell hands calls its token: client.ts setTokenSource). Without local
// storage (a test outside a browser) nobody is signed in.
const get = (k: string) => (typeof localStorage === 'undefined' ? null : localStorage.getItem(k));
const set = (k: string, v: string) => localStorage.setItem(k, v);

const read = () => readStoredSession(get);

interface SessionState {
  session: Session | null;
  actingAs: ActingAs | null;
  /** True once a signed-in session was ended (logout, or a 401): /login then shows the notice. */
  loggedOut: boolean;
}

export const useSession = create<SessionState>(() => ({ ...read(), loggedOut: false }));

/** Whether the signed-in user is a lab admin, not acting as a photographer, as far as this device knows (isLabAdmin). */
export const knownAdmin = (): boolean => isLabAdmin(useSession.getState());

/** Stores a fresh sign-in (login or sign-up). */
export function saveSession(answer: SessionAnswer): void {
  set(SESSION_KEYS.token, answer.token);
  set(SESSION_KEYS.identityHash, answer.intercom_user_hash);
  set(SESSION_KEYS.email, answer.email);
  set(SESSION_KEYS.name, answer.name);
  set(SESSION_KEYS.businessName, answer.business_name);
  set(SESSION_KEYS.isAdmin, String(answer.is_admin));
  set(SESSION_KEYS.userGuid, answer.guid);
  useSession.setState({ ...read(), loggedOut: false });
}

/** Records the admin flag the server reports with lists (meta.current_user_is_admin). */
export function rememberAdmin(isAdmin: boolean): void {
  if (!useSession.getState().session || useSession.getState().actingAs) return;
  localStorage.setItem(SESSION_KEYS.isAdmin, String(isAdmin));
  useSession.setState(read());
}

/** Acts as a photographer (POST /login_as_user's answer) until logout; the admin's own session stays. */
export function startActingAs(answer: Pick<SessionAnswer, 'token' | 'email' | 'name' | 'business_name'>): void {
  set(SESSION_KEYS.actingAsToken, answer.token);
  set(SESSION_KEYS.actingAsEmail, answer.email);
  set(SESSION_KEYS.actingAsName, answer.name);
  set(SESSION_KEYS.actingAsBusinessName, answer.business_name);
  useSession.setState(read());
}

export function clearActingAs(): void {
  for (const k of [SESSION_KEYS.actingAsToken, SESSION_KEYS.actingAsEmail, SESSION_KEYS.actingAsName, SESSION_KEYS.actingAsBusinessName]) {
    localStorage.removeItem(k);
  }
  useSession.setState(read());
}

/**
 * Forgets the whole session, the logged-in-as set included. The auth guard then sends the user
 * to /login, with the logged-out notice when a signed-in session ended.
 */
export function clearSession(): void {
  const wasSignedIn = useSession.getState().session !== null;
  for (const k of Object.values(SESSION_KEYS)) localStorage.removeItem(k);
  useSession.setState({ ...read(), loggedOut: wasSignedIn });
}

/**
 * A call made with `refusedToken` was answered 401 (docs/accounts.md §4): the session it belongs to
 * has ended. A screen has several calls in flight, and they are refused together: only the first
 * refusal ends the session, since a second clearSession would find nobody signed in and take the
 * logged-out notice away again. A late refusal of a session already ended must not end the next
 * sign-in either.
 */
export function endRefusedSession(refusedToken: string): void {
  if (currentToken() !== refusedToken) return;
  clearSession();
}

/** Signs out without the logged-out notice (the user chose it, e.g. after an email change). */
export function clearSessionQuietly(): void {
  for (const k of Object.values(SESSION_KEYS)) localStorage.removeItem(k);
  useSession.setState({ ...read(), loggedOut: false });
}

/** The token calls carry: the impersonation token while acting as a photographer. */
export function currentToken(): string | null {
  const { session, actingAs } = useSession.getState();
  return actingAs?.token ?? session?.token ?? null;
}

// Another tab signing in or out changes local storage: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key !== null && !(Object.values(SESSION_KEYS) as string[]).includes(e.key)) return;
    const wasSignedIn = useSession.getState().session !== null;
    const next = read();
    useSession.setState({ ...next, loggedOut: wasSignedIn && next.session === null });
  });
}
