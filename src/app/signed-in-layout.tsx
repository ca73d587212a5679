import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { useSession } from '../api/session.ts';
import { keepCatalogueForOffline } from '../offline/catalogue-copy.ts';
import { NavBar } from './nav-bar.tsx';

/** Photos queued before a reload, a crash or a closed browser go on by themselves (issue 10). */
function resumeUploads(owner: string): void {
  import('../offline/upload-autostart.ts')
    .then(({ resumeQueuedUploads }) => resumeQueuedUploads(owner))
    .catch((err: unknown) => console.error('could not resume queued uploads', err));
}

export function SignedInLayout() {
  // The catalogue is small and changes rarely: keep a copy so pricing works on a train.
  useEffect(keepCatalogueForOffline, []);
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  useEffect(() => resumeUploads(owner), [owner]);
  return (
    <>
      <NavBar />
      <main className="page">
        <Outlet />
      </main>
    </>
  );
}
