/**
 * A script of its own, run before the app (vite.config.ts makes it a second entry and names it
 * first in index.html): on the orders list's addresses it asks for the list's first page at once,
 * while React and the app's code still download, instead of after they have run
 * (docs/performance-notes.md §3). The API client takes
 * this answer for its first identical call (src/api/early-get.ts); when the app asks for another
 * page, the answer is simply not used. It imports nothing that pulls React in.
 */
import { startEarlyGet } from '../api/early-get.ts';
import { isLabAdmin, readStoredSession } from '../api/stored-session.ts';
import { ADMIN_OPENING_FILTERS } from '../domain/order-filters.ts';
import { API } from '../domain/paths.ts';
import { ROUTES } from './routes.ts';

/**
 * The call startFirstOrdersPage will make for this address and stored session, or null (not a
 * list address, or nobody signed in), read by the session store's own rules.
 */
export function earlyListCall(pathname: string, get: (key: string) => string | null): { path: string; token: string } | null {
  if (pathname !== ROUTES.home && pathname !== ROUTES.labOrders) return null;
  const stored = readStoredSession(get);
  const { session, actingAs } = stored;
  if (!session) return null;
  const query = new URLSearchParams(isLabAdmin(stored) ? { filters: ADMIN_OPENING_FILTERS } : {}).toString();
  return { path: query ? `${API.labOrders}?${query}` : API.labOrders, token: actingAs?.token ?? session.token };
}

if (typeof window !== 'undefined') {
  const call = earlyListCall(window.location.pathname, (key) => localStorage.getItem(key));
  if (call) startEarlyGet(call.path, call.token);
}
