import { startTransition, useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { getLabOrders, type LabOrderList, type LabOrderListAttributes } from '../../api/lab-orders.ts';
import { rememberAdmin } from '../../api/session.ts';
import { keepRead, readThrough } from '../../offline/cached-read.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { matchesOrderSearch } from '../../domain/order-list.ts';
import { useServerCheck } from '../../ui/use-server-check.ts';
import { takeFirstOrdersPage } from './first-page.ts';

const KEPT_AS = 'lab_orders';

/** What the lab is asked for: the admin's filters and the merge selection's photographer ('' and null for none). */
export interface ListScope {
  filters: string;
  photographerId: string | null;
}

/** The scope's query parameters, for every page of the list and its searches. */
const scopeQuery = (scope: ListScope) => ({
  ...(scope.filters ? { filters: scope.filters } : {}),
  ...(scope.photographerId ? { photographerId: scope.photographerId } : {}),
});

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'loaded'; list: LabOrderList; cachedAt: number | null };

/** What the screen shows: the orders so far, how many there are in all, and whether more can load. */
export interface ShownOrders {
  orders: LabOrderListAttributes[];
  total: number;
  hasMore: boolean;
  /** Found on this device among the orders loaded so far, while the server's search is on its way (or offline). */
  local: boolean;
}

/** Appends a page, skipping orders already listed (an order updated meanwhile moves up a page). */
function appendPage(list: LabOrderList, page: LabOrderList): LabOrderList {
  const seen = new Set(list.data.map((d) => d.attributes.guid));
  return { data: [...list.data, ...page.data.filter((d) => !seen.has(d.attributes.guid))], meta: page.meta };
}

/**
 * The orders list, a page at a time (newest first): the first page at once (offline, the orders
 * last seen on this device), more as the user scrolls. A search asks the server, so it finds
 * orders on pages not loaded yet; until its answer comes (and offline) the loaded orders are
 * searched on the device.
 */
export function useOrderList(owner: string, scope: ListScope) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [query, setQuery] = useState('');
  // Typing updates the box at once; the list follows when the browser has time (never blocks a key).
  const deferredQuery = useDeferredValue(query);
  const { filters, photographerId } = scope;
  const scoped = Boolean(filters || photographerId);
  const [searchMore, setSearchMore] = useState<{ words: string; list: LabOrderList } | null>(null);
  const [more, setMore] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  const fetchOrders = useCallback(
    (signal?: AbortSignal) => {
      // The early first page is the unscoped one: a scoped list (admin filters) asks afresh.
      const early = scoped ? null : takeFirstOrdersPage();
      const asked = { ...scopeQuery({ filters, photographerId }), ...(signal ? { signal } : {}) };
      const kept = scoped ? `${KEPT_AS}|${filters}|${photographerId ?? ''}` : KEPT_AS;
      readThrough(owner, kept, () => early ?? getLabOrders(asked)).then(
        ({ data: list, cachedAt }) => {
          if (signal?.aborted) return;
          if (cachedAt === null) rememberAdmin(list.meta.current_user_is_admin);
          // A page of cards is rendered in slices between other work (a transition), not in one
          // long task: on a phone the list no longer blocks taps while it appears.
          startTransition(() => {
            setLoad({ state: 'loaded', list, cachedAt });
            setMore({ busy: false, error: null });
          });
        },
        (err: unknown) => {
          if (signal?.aborted) return;
          logErrorDetails(err);
          setLoad({ state: 'error', message: errorText(err) });
          // The list clears its query on failure (orders.md §8).
          setQuery('');
        },
      );
    },
    [owner, scoped, filters, photographerId],
  );

  useEffect(() => {
    const ctrl = new AbortController();
    fetchOrders(ctrl.signal);
    return () => ctrl.abort();
  }, [fetchOrders]);

  // When the lab is reachable again (the one connectivity store), the kept copy is replaced by a
  // live list, and the offline notice goes with it.
  const online = useConnectivity(isOnline);
  const showingCopy = load.state === 'loaded' && load.cachedAt !== null;
  useEffect(() => {
    if (!online || !showingCopy) return;
    const ctrl = new AbortController();
    fetchOrders(ctrl.signal);
    return () => ctrl.abort();
  }, [online, showingCopy, fetchOrders]);

  const live = load.state === 'loaded' && load.cachedAt === null;
  const words = deferredQuery.trim();
  const askServer = useCallback((search: string) => getLabOrders({ search, ...scopeQuery({ filters, photographerId }) }), [filters, photographerId]);
  const found = useServerCheck(live && words ? words : null, askServer);
  const searchList = found && (searchMore?.words === words ? searchMore.list : found);

  const shown = useMemo((): ShownOrders => {
    if (load.state !== 'loaded') return { orders: [], total: 0, hasMore: false, local: false };
    if (words && searchList) {
      return { orders: searchList.data.map((d) => d.attributes), total: searchList.meta.total, hasMore: Boolean(searchList.meta.next_cursor), local: false };
    }
    const all = load.list.data.map((d) => d.attributes);
    const orders = words ? all.filter((o) => matchesOrderSearch(o, words)) : all;
    // An offline copy kept by an older version of the app has no paging meta.
    const total = words ? orders.length : (load.list.meta.total ?? all.length);
    return { orders, total, hasMore: !words && live && Boolean(load.list.meta.next_cursor), local: Boolean(words) };
  }, [load, live, words, searchList]);

  const loadMore = useCallback(() => {
    if (more.busy || load.state !== 'loaded') return;
    const searching = Boolean(words && searchList);
    const from = searching && searchList ? searchList : load.list;
    if (!from.meta.next_cursor) return;
    setMore({ busy: true, error: null });
    getLabOrders({ cursor: from.meta.next_cursor, ...scopeQuery({ filters, photographerId }), ...(searching ? { search: words } : {}) }).then(
      (page) => {
        const list = appendPage(from, page);
        if (searching) {
          setSearchMore({ words, list });
        } else {
          setLoad({ state: 'loaded', list, cachedAt: null });
          // Offline, the orders seen so far are shown; a failure to keep them changes nothing now.
          if (!scoped) keepRead(owner, KEPT_AS, list).catch(logErrorDetails);
        }
        setMore({ busy: false, error: null });
      },
      (err: unknown) => {
        logErrorDetails(err);
        setMore({ busy: false, error: errorText(err) });
      },
    );
  }, [more.busy, load, words, searchList, owner, scoped, filters, photographerId]);

  const reload = useCallback(() => {
    setLoad({ state: 'loading' });
    fetchOrders();
  }, [fetchOrders]);

  return { load, query, setQuery, shown, more, loadMore, reload };
}
