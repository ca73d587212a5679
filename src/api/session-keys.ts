/**
 * The session as the spec keeps it in local storage (accounts.md §3): token, identity hash,
 * email, name, business name, and the logged-in-as set while an admin acts as a photographer.
 * A module of its own so that code running before the app (src/app/early-list-page.ts) reads
 * them without the session store and React.
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
