/** Shapes of the wire contract (docs/api.md §5) that both the server and the client name. */

/** The answer of login, sign-up and login_as_user. */
export interface SessionAnswer {
  token: string;
  /** The user's own guid, which account calls name (PATCH /users/{guid}, certificate uploads). */
  guid: string;
  intercom_user_hash: string;
  email: string;
  name: string;
  business_name: string;
  /** Lets the app show admin-only navigation at once; the server still checks every call. */
  is_admin: boolean;
}
