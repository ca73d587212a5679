import { useEffect } from 'react';
import { Outlet, useNavigation } from 'react-router-dom';
import { NavBar } from './nav-bar.tsx';

/** The catalogue is small and changes rarely: keep a copy so pricing works on a train. */
function keepCatalogue(): void {
  // On demand, with IndexedDB's code: the shell's first download stays small.
  import('../offline/catalogue-copy.ts').then(
    ({ keepCatalogueForOffline }) => keepCatalogueForOffline(),
    () => {
      // The chunk could not load (a deploy replaced it): the next visit keeps the copy.
    },
  );
}

export function SignedInLayout() {
  useEffect(keepCatalogue, []);
  // While the next screen's code arrives the current one stays, marked busy.
  const busy = useNavigation().state === 'loading';
  return (
    <>
      <NavBar />
      <main className="page" aria-busy={busy}>
        <Outlet />
      </main>
    </>
  );
}
