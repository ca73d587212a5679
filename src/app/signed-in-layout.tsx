import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { keepCatalogueForOffline } from '../offline/catalogue-copy.ts';
import { NavBar } from './nav-bar.tsx';

export function SignedInLayout() {
  // The catalogue is small and changes rarely: keep a copy so pricing works on a train.
  useEffect(keepCatalogueForOffline, []);
  return (
    <>
      <NavBar />
      <main className="page">
        <Outlet />
      </main>
    </>
  );
}
