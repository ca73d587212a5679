import { Outlet } from '../ui/router.tsx';
import { ConnectionStatus } from './connection-status.tsx';

/**
 * Screens without the navigation bar (sign-in, sign-up, password reset): the connection status
 * is a strip of their layout, above the screen, never laid over it. Signed in, it sits in the
 * navigation bar (nav-bar.tsx).
 */
export function PublicLayout() {
  return (
    <div className="public-layout">
      <ConnectionStatus />
      <Outlet />
    </div>
  );
}
