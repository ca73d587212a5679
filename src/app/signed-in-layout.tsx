import { Outlet } from 'react-router-dom';
import { NavBar } from './nav-bar.tsx';

export function SignedInLayout() {
  return (
    <>
      <NavBar />
      <main className="page">
        <Outlet />
      </main>
    </>
  );
}
