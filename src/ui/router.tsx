/**
 * The app's router: the address bar's history, the route table's answer (src/ui/route-match.ts)
 * and the links between screens. It does what the app asked of React Router's plain (declarative)
 * mode, with the same names and the same behaviour, and nothing else: that mode still brought
 * React Router's links with their prefetching and its form and data code to every page
 * (docs/performance-notes.md §4). Navigations are transitions, as they were: the current screen
 * stays on show while the next one's code arrives (src/app/screen-frame.tsx).
 */
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { matchRoutes, rankRoutes, type Params, type RouteObject } from './route-match.ts';

export type { RouteObject } from './route-match.ts';

/** Where the app is: the address's parts, the state a navigation left there, and a key per visit. */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

export type To = string | Partial<Pick<Location, 'pathname' | 'search' | 'hash'>>;

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export interface NavigateFunction {
  (to: To, options?: NavigateOptions): void;
  /** Back (negative) or forward through the browser's history. */
  (delta: number): void;
}

/** What a navigation writes into history.state: React Router's shape, so older entries still read. */
interface HistoryEntry {
  usr: unknown;
  key: string;
}

interface RouterValue {
  location: Location;
  navigate: NavigateFunction;
}

const RouterContext = createContext<RouterValue | null>(null);
const RouteContext = createContext<{ outlet: ReactNode; params: Params }>({ outlet: null, params: {} });

function readLocation(): Location {
  const { pathname, search, hash } = window.location;
  const entry = window.history.state as Partial<HistoryEntry> | null;
  return { pathname, search, hash, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
}

// A key tells two visits to the same address apart (React Router's length and alphabet).
const KEY_LENGTH = 8;
const newKey = () => Math.random().toString(36).slice(2, 2 + KEY_LENGTH);

const EXTERNAL = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;

/** The address `to` leads to from the path `from`: absolute as written, relative to the current path, or only a new query or fragment. */
function hrefOf(to: To, from: string): string {
  const parts = typeof to === 'string' ? splitPath(to) : to;
  let pathname = parts.pathname || from;
  if (!pathname.startsWith('/')) pathname = new URL(pathname, `http://app${from.replace(/\/?$/, '/')}`).pathname;
  // A lone '?' or '#' is no query or fragment (React Router's createPath).
  const search = parts.search && parts.search !== '?' ? parts.search : '';
  const hash = parts.hash && parts.hash !== '#' ? parts.hash : '';
  return `${pathname}${search}${hash}`;
}

function splitPath(path: string): Pick<Location, 'pathname' | 'search' | 'hash'> {
  const hashAt = path.indexOf('#');
  const hash = hashAt < 0 ? '' : path.slice(hashAt);
  const rest = hashAt < 0 ? path : path.slice(0, hashAt);
  const searchAt = rest.indexOf('?');
  return { pathname: searchAt < 0 ? rest : rest.slice(0, searchAt), search: searchAt < 0 ? '' : rest.slice(searchAt), hash };
}

const pathOf = (location: Location) => `${location.pathname}${location.search}${location.hash}`;

/** The browser's history as the app's location: the back and forward buttons and every navigation. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(readLocation);
  useEffect(() => {
    const onPop = () => startTransition(() => setLocation(readLocation()));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to: To | number, options: NavigateOptions = {}) => {
    if (typeof to === 'number') {
      window.history.go(to);
      return;
    }
    // Against the address bar, which is ahead of `location` until the transition's render is done.
    const href = hrefOf(to, window.location.pathname);
    const entry: HistoryEntry = { usr: options.state ?? null, key: newKey() };
    try {
      if (options.replace) window.history.replaceState(entry, '', href);
      else window.history.pushState(entry, '', href);
    } catch {
      // Safari refuses history calls past its rate limit: load the address instead.
      if (options.replace) window.location.replace(href);
      else window.location.assign(href);
      return;
    }
    startTransition(() => setLocation(readLocation()));
  }, []) as NavigateFunction;
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

function useRouter(): RouterValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('a link or route hook is used outside <BrowserRouter>');
  return router;
}

export const useLocation = (): Location => useRouter().location;
export const useNavigate = (): NavigateFunction => useRouter().navigate;
/** The parameters (`:name` segments) of the route on show. */
export const useParams = (): Params => useContext(RouteContext).params;
/** Where a layout route shows the route inside it. */
export const Outlet = (): ReactNode => useContext(RouteContext).outlet;

/** The screen for `location`: its route and the layouts around it, each showing the next in its <Outlet>. */
export function useRoutes(routes: RouteObject[], location: Location): ReactNode {
  const ranked = useMemo(() => rankRoutes(routes), [routes]);
  const match = matchRoutes(ranked, location.pathname);
  if (!match) return null;
  return match.chain.reduceRight<ReactNode>(
    // A route without an element shows its child in its place.
    (outlet, route) => <RouteContext.Provider value={{ outlet, params: match.params }}>{route.element === undefined ? outlet : route.element}</RouteContext.Provider>,
    null,
  );
}

type SearchInit = URLSearchParams | Record<string, string> | string;

/** The address's query, and a change of it that stays on the same path (the fragment goes). */
export function useSearchParams(): [URLSearchParams, (next: SearchInit, options?: NavigateOptions) => void] {
  const { location, navigate } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const setParams = useCallback((next: SearchInit, options?: NavigateOptions) => navigate(`?${new URLSearchParams(next).toString()}`, options), [navigate]);
  return [params, setParams];
}

/** Goes to `to` once shown (a redirect); shows nothing. */
export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace, state }), [navigate, to, replace, state]);
  return null;
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: To } & NavigateOptions;

/**
 * A link to another screen: a real address (opens in a new tab with a modifier key or a middle
 * click), followed in the app on a plain click. A link to where the app already is replaces the
 * history entry instead of adding one.
 */
export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const { location, navigate } = useRouter();
  if (typeof to === 'string' && EXTERNAL.test(to)) return <a {...rest} href={to} target={target} onClick={onClick} />;
  const href = hrefOf(to, location.pathname);
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const modified = event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
    if (event.defaultPrevented || event.button !== 0 || (target && target !== '_self') || modified) return;
    event.preventDefault();
    navigate(href, { replace: replace ?? href === pathOf(location), state });
  };
  return <a {...rest} href={href} target={target} onClick={follow} />;
}

/**
 * A link of the navigation bar: class 'active' and aria-current="page" while the app is at its
 * address or below it (React Router's rule: '/' only at '/', letters in either case).
 */
export function NavLink({ to, className, ...rest }: LinkProps) {
  const { location } = useRouter();
  const target = splitPath(hrefOf(to, location.pathname)).pathname.toLowerCase();
  const here = location.pathname.toLowerCase();
  const end = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  const active = here === target || (here.startsWith(target) && here.charAt(end) === '/');
  return <Link {...rest} to={to} className={[className, active ? 'active' : ''].filter(Boolean).join(' ') || undefined} aria-current={active ? 'page' : undefined} />;
}
