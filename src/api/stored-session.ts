/**
 * The session as the spec keeps it in local storage (docs/accounts.md §3): token, identity hash,
 * email, name, business name, and the logged-in-as set while an admin acts as a photographer.
 * A module of its own so that code running before the app (src/app/early-list-page.ts) reads
 * them by the same rules as the session store, without the store and React.
 */
export const SESSION_KEYS = {
  token: 'token',
  identityHash: 'identity-hash',
  email: 'email',
  name: 'name',
  businessName: 'business-name',
  isAdmin: 'is-admin',
  userGuid: 'user-guid',
  actingAsToken: 'logged-in-as-token',
  actingAsEmail: 'logged-in-as-email',
  actingAsName: 'logged-in-as-name',
  actingAsBusinessName: 'logged-in-as-business-name',
} as const;

export interface Session {
  token: string;
  identityHash: string;
  email: string;
  name: string;
  businessName: string;
  isAdmin: boolean;
  guid: string;
}

export interface ActingAs {
  token: string;
  email: string;
  name: string;
  businessName: string;
}

/** The session and the acting-as kept in storage, read through `get` (local storage's getItem). */
export function readStoredSession(get: (key: string) => string | null): { session: Session | null; actingAs: ActingAs | null } {
  const token = get(SESSION_KEYS.token);
  const identityHash = get(SESSION_KEYS.identityHash);
  const email = get(SESSION_KEYS.email);
  // Signed in means token, email and identity hash are all present (docs/accounts.md §2).
  const session =
    token && identityHash && email
      ? {
          token,
          identityHash,
          email,
          name: get(SESSION_KEYS.name) ?? '',
          businessName: get(SESSION_KEYS.businessName) ?? '',
          isAdmin: get(SESSION_KEYS.isAdmin) === 'true',
          guid: get(SESSION_KEYS.userGuid) ?? '',
        }
      : null;
  const actingToken = get(SESSION_KEYS.actingAsToken);
  const actingAs =
    session && actingToken
      ? {
          token: actingToken,
          email: get(SESSION_KEYS.actingAsEmail) ?? '',
          name: get(SESSION_KEYS.actingAsName) ?? '',
          businessName: get(SESSION_KEYS.actingAsBusinessName) ?? '',
        }
      : null;
  return { session, actingAs };
}

/**
 * Signed in as a lab admin and not acting as a photographer: who sees the admin's tools (the
 * PHOTOGRAPHERS link, the list's filters and card lines, the order's panel) as far as this device
 * knows (the sign-in answer, then each list's meta). The lab checks again on every call.
 */
export const isLabAdmin = ({ session, actingAs }: { session: Session | null; actingAs: ActingAs | null }): boolean => Boolean(session?.isAdmin) && actingAs === null;
