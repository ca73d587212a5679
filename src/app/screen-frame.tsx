import type { ReactNode } from 'react';
import { useScreenLoading } from './screen-loads.ts';

/**
 * Around every screen. Navigations are transitions: the address changes at the click and the
 * current screen stays until the next one's code is in. Meanwhile it is inert (and says it is
 * busy), so nothing typed or clicked goes into a screen that is about to go away: a photographer
 * who starts typing an email the moment RESET is clicked would otherwise lose it into the sign-in
 * form. It lays out nothing (display: contents); the navigation bar, outside it, stays usable.
 */
export function ScreenFrame({ children }: { children: ReactNode }) {
  const busy = useScreenLoading();
  return (
    <div className="screen-frame" inert={busy} aria-busy={busy}>
      {children}
    </div>
  );
}
