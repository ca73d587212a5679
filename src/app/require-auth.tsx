import { Navigate, Outlet, useLocation } from '../ui/router.tsx';
import { useSession } from '../api/session.ts';
import { LOGGED_OUT_FLAG, ROUTES } from './routes.ts';

/**
 * Signed-in routes: a visitor without token, email and identity hash goes to /login, carrying
 * the origin; when a session has just ended (logout, any 401) /login also shows the notice.
 */
export function RequireAuth() {
  const { session, loggedOut } = useSession();
  const location = useLocation();
  if (!session) {
    const { pathname, search, hash } = location;
    const to = loggedOut ? `${ROUTES.login}?${LOGGED_OUT_FLAG}=true` : ROUTES.login;
    return <Navigate to={to} replace state={{ from: { pathname, search, hash } }} />;
  }
  return <Outlet />;
}
