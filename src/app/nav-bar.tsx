import { useRef, useState, type KeyboardEvent } from 'react';
import { Link, NavLink, useLocation, useNavigate } from '../ui/router.tsx';
import { logout } from '../api/auth.ts';
import { clearActingAs, clearSession, useSession } from '../api/session.ts';
import { isLabAdmin } from '../api/stored-session.ts';
import { ROUTES } from './routes.ts';
import { ConnectionStatus } from './connection-status.tsx';

/** The marketing site's price page (the PRICING link is external, docs/accounts.md §2). */
export const PRICING_URL: string = import.meta.env.VITE_PRICING_URL ?? 'https://www.example.com/pricing';

/**
 * docs/accounts.md §2: logo, ORDERS, PRICING, CREDIT, PHOTOGRAPHERS and DISCOUNT CODES (admins), account
 * and logout icons.
 * On narrow screens (app.css) the links fold into a MENU disclosure; the logo, the account and
 * logout icons stay in the bar.
 */
export function NavBar() {
  const { session, actingAs } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // The menu is open on the screen where it was opened: a link chosen from it leads to another
  // screen, and the menu is closed there.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;
  const setMenuOpen = (open: boolean) => setOpenOn(open ? pathname : null);
  const menuButton = useRef<HTMLButtonElement>(null);

  const onMenuKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && menuOpen) {
      setMenuOpen(false);
      menuButton.current?.focus();
    }
  };

  const onLogout = async () => {
    try {
      // Uses the impersonation token while acting as a photographer (see api/client.ts).
      await logout();
    } catch {
      // Offline or already ended: the device forgets the session all the same.
    }
    if (actingAs) {
      clearActingAs();
      void navigate(ROUTES.labOrders);
    } else {
      clearSession();
    }
  };

  return (
    <header className="nav-bar">
      <nav aria-label="Main" onKeyDown={onMenuKey}>
        <Link to={ROUTES.home} className="nav-logo" aria-label="Print lab home">
          <img src="/logo.svg" alt="" width="32" height="32" />
          <span>PRINT LAB</span>
        </Link>
        <button
          ref={menuButton}
          type="button"
          className="nav-menu-button"
          aria-expanded={menuOpen}
          aria-controls="nav-links"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
          MENU
        </button>
        <div id="nav-links" className={menuOpen ? 'nav-links is-open' : 'nav-links'}>
          <NavLink to={ROUTES.labOrders}>ORDERS</NavLink>
          <a href={PRICING_URL} target="_blank" rel="noreferrer">
            PRICING
          </a>
          <NavLink to={ROUTES.credit}>CREDIT</NavLink>
          {isLabAdmin({ session, actingAs }) ? (
            <>
              <NavLink to={ROUTES.photographers}>PHOTOGRAPHERS</NavLink>
              <NavLink to={ROUTES.discountCodes}>DISCOUNT CODES</NavLink>
            </>
          ) : null}
        </div>
        <span className="nav-spacer" />
        {/* In the bar, never over a screen: a row of its own on narrow screens (app.css). */}
        <ConnectionStatus />
        {actingAs ? <span className="nav-acting">Acting as {actingAs.name || actingAs.email}</span> : null}
        <NavLink to={ROUTES.account} aria-label="Account" className="nav-icon">
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <circle cx="12" cy="8" r="4" />
            <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7" />
          </svg>
        </NavLink>
        <button type="button" className="nav-icon" aria-label="Log out" onClick={() => void onLogout()}>
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h11" />
          </svg>
        </button>
      </nav>
    </header>
  );
}
