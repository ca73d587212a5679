import { useEffect } from 'react';
import { Outlet } from '../ui/router.tsx';
import { useSession } from '../api/session.ts';
import { afterFirstScreen } from '../offline/after-first-screen.ts';
import { NavBar } from './nav-bar.tsx';
import { useRouteNotice } from './route-notice.ts';

/** The catalogue is small and changes rarely: keep a copy so pricing works on a train. */
function keepCatalogue(): void {
  // On demand, with IndexedDB's code, once the first screen is shown: the shell's first download
  // stays small and the catalogue's download never competes with what the user opened.
  afterFirstScreen()
    .then(() => import('../offline/catalogue-copy.ts'))
    .then(
      ({ keepCatalogueForOffline }) => keepCatalogueForOffline(),
      () => {
        // The chunk could not load (a deploy replaced it): the next visit keeps the copy.
      },
    );
}

/** Photos queued before a reload, a crash or a closed browser go on by themselves (issue 10). */
function resumeUploads(owner: string): void {
  afterFirstScreen()
    .then(() => import('../upload/page/upload-autostart.ts'))
    .then(({ resumeQueuedUploads }) => resumeQueuedUploads(owner))
    .catch((err: unknown) => console.error('could not resume queued uploads', err));
}

export function SignedInLayout() {
  useEffect(keepCatalogue, []);
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  useEffect(() => resumeUploads(owner), [owner]);
  useRouteNotice();
  return (
    <>
      <NavBar />
      <main className="page">
        <Outlet />
      </main>
    </>
  );
}
