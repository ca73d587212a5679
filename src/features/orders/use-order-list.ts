import { startTransition, useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { ApiError, errorText, logErrorDetails } from '../../api/errors.ts';
import { getLabOrders, type LabOrderListAttributes } from '../../api/lab-orders.ts';
import { rememberAdmin } from '../../api/session.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { labDb } from '../../offline/db.ts';
import { useLiveQuery } from '../../offline/live-query.ts';
import { nextTask } from '../../offline/next-task.ts';
import { fillListPage, noteListAnswer, pageRange, readListed, readListedByIds, listSyncedAt } from '../../offline/order-list-store.ts';
import { matchesOrderSearch } from '../../client-rules/order-list.ts';
import { useAfterPaint } from '../../ui/use-after-paint.ts';
import { useServerCheck } from '../../ui/use-server-check.ts';
import { freshPage, guidsOf, keepFresh, readingOf, sameObjects, type FreshPage, type ShownBefore } from './fresh-page.ts';
import { usePreparedSearch } from './use-prepared-search.ts';
import { answeredFirstOrdersPage, takeFirstOrdersPage, type ListScope } from './first-page.ts';

// The rules of a filtered view: admins only, so a photographer's list never downloads them.
const loadRules = () => import('./view-rule.ts');
type ViewRules = Awaited<ReturnType<typeof loadRules>>;

export type { ListScope } from './first-page.ts';

/** The scope's query parameters, for every page of the list and its searches. */
const scopeQuery = (scope: ListScope) => ({
  ...(scope.filters ? { filters: scope.filters } : {}),
  ...(scope.photographerId ? { photographerId: scope.photographerId } : {}),
});

/** One name per scope: the views of the list are told apart by it. */
const scopeKey = (scope: ListScope) => `${scope.filters}|${scope.photographerId ?? ''}`;

/** What the lab said about the list's current view in this visit of the screen. */
interface ViewAnswer {
  key: string;
  state: 'asking' | 'answered' | 'copy' | 'error';
  /** 'error': the words shown after ERROR LOADING. */
  message: string;
  /** 'copy': when the device last had the lab's answer (the offline notice's time). */
  cachedAt: number | null;
  admin: boolean | null;
  /** How many orders match the view, all pages together (-1: not known). */
  total: number;
  next: string | null;
  /** The lowest listed date the pages so far cover (ms; null: to the end of the list). */
  floor: number | null;
  /** The orders the lab answered, pages so far (a filtered view shows exactly these). */
  ids: string[];
}

const asking = (key: string): ViewAnswer => ({ key, state: 'asking', message: '', cachedAt: null, admin: null, total: -1, next: null, floor: null, ids: [] });

/** The server's answer to a search: the orders it found (written to the table) and its paging. */
interface SearchAnswer {
  words: string;
  ids: string[];
  total: number;
  next: string | null;
}

/** What the screen shows: the orders so far, how many there are in all, and whether more can load. */
export interface ShownOrders {
  orders: LabOrderListAttributes[];
  total: number;
  hasMore: boolean;
  /** Found on this device among the orders it has, while the server's search is on its way (or offline). */
  local: boolean;
}

/**
 * The orders list, local-first: the screen reads the orders table (useLiveQuery) and the lab's
 * pages only fill it (order-list-store.ts). Before the lab answers, and offline, the list shows
 * what the device has; once it answers, exactly the pages asked for (newest first), more as the
 * user scrolls. An admin's filters and the merge selection are the lab's to apply: a filtered
 * view shows the orders the lab answered, read from the table (see docs/upload-and-sync.md §2).
 */
export function useOrderList(owner: string, scope: ListScope, myGuid: string | null) {
  const key = scopeKey(scope);
  const [answer, setAnswer] = useState<ViewAnswer>(() => asking(key));
  const [generation, setGeneration] = useState(0);
  const { filters, photographerId } = scope;
  const scoped = Boolean(filters || photographerId);
  // When the screen opens after the app's early first page is in, its first render shows it.
  const [fresh, setFresh] = useState<FreshPage | null>(() => {
    const page = answeredFirstOrdersPage(scope);
    return page ? freshPage(key, 0, scoped, page) : null;
  });
  // Each read of the table makes new objects; an order whose fields did not change keeps the
  // object shown before (or the one of the lab's fresh page), so its card is not drawn again and
  // its date not worked out again (order-list.ts).
  const [shownBefore] = useState((): ShownBefore => ({ byGuid: new Map(), fresh: new Map(fresh?.rows.map((r) => [r.guid, r])) }));
  // meta.urgent_count of the lab's last answer, whatever the view: the 'Urgent Orders:' section
  // does not go and come back while another view is asked for.
  const [urgent, setUrgent] = useState(0);
  const [query, setQuery] = useState('');
  // Typing updates the box at once; the list follows once that frame is painted, when the browser
  // has time (never blocks a key, nor is the new list laid out in the key's own frame).
  const deferredQuery = useDeferredValue(useAfterPaint(query, nextTask));
  const [searchMore, setSearchMore] = useState<SearchAnswer | null>(null);
  const [more, setMore] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const [rules, setRules] = useState<ViewRules | null>(null);
  useEffect(() => {
    if (scoped && !rules) loadRules().then(setRules, logErrorDetails);
  }, [scoped, rules]);
  const rule = useMemo(() => (scoped && rules ? rules.viewRule({ filters, photographerId }, myGuid) : null), [scoped, rules, filters, photographerId, myGuid]);
  // A filtered view's reconciling rule (view-rule.ts); the unfiltered view reconciles every row.
  const reconcileOf = useCallback(
    async (asked: ListScope) => (asked.filters || asked.photographerId ? (await loadRules()).reconcileRule(asked, myGuid) : { inView: null }),
    [myGuid],
  );

  useEffect(() => {
    const ctrl = new AbortController();
    const signal = ctrl.signal;
    const asked = { filters, photographerId };
    (async () => {
      const page = await (takeFirstOrdersPage(asked) ?? getLabOrders({ ...scopeQuery(asked), signal }));
      if (signal.aborted) return;
      rememberAdmin(page.meta.current_user_is_admin);
      const range = pageRange(page, null);
      // Shown at once (unless the first render already did); the read that follows the write
      // keeps its objects (sameObjects), so no card is drawn twice.
      const next = freshPage(key, generation, Boolean(asked.filters || asked.photographerId), page);
      keepFresh(shownBefore, next.rows);
      setFresh((f) => (f?.page === page && f.key === key && f.generation === generation ? f : next));
      const reconcile = await reconcileOf(asked);
      await fillListPage(labDb, owner, page, { range: reconcile ? range : null, inView: reconcile?.inView ?? null });
      await noteListAnswer(labDb, owner);
      if (signal.aborted) return;
      const m = page.meta;
      // A page of cards is rendered in slices between other work (a transition), not in one long task.
      startTransition(() => {
        setAnswer({ ...asking(key), state: 'answered', admin: m.current_user_is_admin, total: m.total, next: m.next_cursor, floor: range.lower, ids: guidsOf(page) });
        setMore({ busy: false, error: null });
        setUrgent(m.urgent_count ?? 0);
      });
    })().catch(async (err: unknown) => {
      if (signal.aborted) return;
      // No lab: the device's orders, with when the lab last answered; with nothing kept, say so.
      const syncedAt = err instanceof ApiError && err.kind === 'network' ? await listSyncedAt(labDb, owner).catch(() => null) : null;
      if (signal.aborted) return;
      if (syncedAt !== null) {
        setAnswer({ ...asking(key), state: 'copy', cachedAt: syncedAt });
        return;
      }
      logErrorDetails(err);
      setAnswer({ ...asking(key), state: 'error', message: errorText(err) });
      // The list clears its query on failure (docs/orders.md §8).
      setQuery('');
    });
    return () => ctrl.abort();
    // `generation` is the screen's ask-again count (RELOAD, a change, the lab reachable again).
    // oxlint-disable-next-line react/exhaustive-effect-dependencies
  }, [owner, key, filters, photographerId, reconcileOf, generation, shownBefore]);

  const current = answer.key === key ? answer : asking(key);
  const answered = current.state === 'answered';

  // When the lab is reachable again (the one connectivity store), the lab is asked again, and the
  // offline notice goes.
  const showingCopy = current.state === 'copy';
  useEffect(() => {
    if (!showingCopy) return;
    return useConnectivity.subscribe((now, before) => {
      if (isOnline(now) && !isOnline(before)) setGeneration((g) => g + 1);
    });
  }, [showingCopy]);

  // Answered: an unfiltered view is the table's rows down to where the pages reach; a filtered
  // one the rows the lab said match. Before that (and offline) every row the device has, checked
  // against the view's rule here.
  const ids = answered && scoped ? current.ids : null;
  const floor = answered && !scoped ? current.floor : null;
  // Each read says what it read, so LOAD MORE waits until the page it loaded is on screen (else
  // it would still be in view and load the page after too).
  const reading = readingOf(floor, ids);
  const read = useLiveQuery(
    async () => ({ reading, rows: sameObjects(shownBefore, await (ids ? readListedByIds(labDb, owner, ids) : readListed(labDb, owner, floor))) }),
    [owner, ids, floor, shownBefore],
  );
  const rows = read?.rows;
  // A filtered view shows nothing of the device's until its rules are in (a moment, once).
  const tableOrders = useMemo(() => (rows && scoped && !ids ? (rule ? rows.filter(rule) : []) : rows), [rows, scoped, rule, ids]);
  // The lab's first page of this view, until the table's read shows it.
  const early =
    fresh && fresh.key === key && fresh.generation === generation && (current.state === 'asking' || (answered && fresh.reading === reading && read?.reading !== reading))
      ? fresh
      : null;
  const orders = early ? early.rows : tableOrders;
  usePreparedSearch(orders);

  const words = deferredQuery.trim();
  const askServer = useCallback(
    async (search: string): Promise<SearchAnswer> => {
      const page = await getLabOrders({ search, ...scopeQuery({ filters, photographerId }) });
      await fillListPage(labDb, owner, page, { range: null, inView: null });
      return { words: search, ids: guidsOf(page), total: page.meta.total, next: page.meta.next_cursor };
    },
    [owner, filters, photographerId],
  );
  const found = useServerCheck(answered && words ? words : null, askServer);
  const search = found && (searchMore?.words === words && searchMore.ids[0] === found.ids[0] ? searchMore : found);
  const searchIds = search?.ids ?? null;
  const searchRead = useLiveQuery(async () => ({ n: searchIds?.length, rows: searchIds ? await readListedByIds(labDb, owner, searchIds) : null }), [owner, searchIds]);
  const searchRows = searchRead?.rows;
  const shownAll = words && search ? searchRead?.n === search.ids.length : read?.reading === reading;

  const shown = useMemo((): ShownOrders => {
    if (words && search && searchRows) return { orders: searchRows, total: search.total, hasMore: Boolean(search.next), local: false };
    const all = orders ?? [];
    if (words) {
      const matching = all.filter((o) => matchesOrderSearch(o, words));
      return { orders: matching, total: matching.length, hasMore: false, local: true };
    }
    return { orders: all, total: Math.max(early ? early.total : current.total, all.length), hasMore: answered && Boolean(current.next), local: false };
  }, [orders, words, search, searchRows, early, current.total, current.next, answered]);

  const loadMore = useCallback(() => {
    if (more.busy) return;
    const asked = scopeQuery({ filters, photographerId });
    if (words && search) {
      if (!search.next) return;
      setMore({ busy: true, error: null });
      getLabOrders({ cursor: search.next, search: words, ...asked })
        .then(async (page) => {
          await fillListPage(labDb, owner, page, { range: null, inView: null });
          setSearchMore({ ...search, ids: [...search.ids, ...guidsOf(page)], next: page.meta.next_cursor });
          setMore({ busy: false, error: null });
        })
        .catch(failedMore);
      return;
    }
    if (!answered || !current.next) return;
    const from = current;
    setMore({ busy: true, error: null });
    getLabOrders({ cursor: from.next, ...asked })
      .then(async (page) => {
        const range = pageRange(page, from.floor);
        const reconcile = await reconcileOf({ filters, photographerId });
        await fillListPage(labDb, owner, page, { range: reconcile ? range : null, inView: reconcile?.inView ?? null });
        const seen = new Set(from.ids);
        setAnswer((a) =>
          a.key === from.key && a.next === from.next
            ? { ...a, next: page.meta.next_cursor, total: page.meta.total, floor: range.lower, ids: [...a.ids, ...guidsOf(page).filter((g) => !seen.has(g))] }
            : a,
        );
        setMore({ busy: false, error: null });
      })
      .catch(failedMore);

    function failedMore(err: unknown) {
      logErrorDetails(err);
      setMore({ busy: false, error: errorText(err) });
    }
  }, [more.busy, filters, photographerId, words, search, answered, current, owner, reconcileOf]);

  /** Asks the lab again for the view's first page; what is shown stays until it answers. */
  const refresh = useCallback(() => setGeneration((g) => g + 1), []);
  /** RELOAD after an error: 'loading', then the lab's answer. */
  const reload = useCallback(() => {
    setAnswer(asking(key));
    setGeneration((g) => g + 1);
  }, [key]);

  const status = current.state === 'error' ? 'error' : orders === undefined || (orders.length === 0 && current.state === 'asking') ? 'loading' : 'ready';
  return {
    status,
    message: current.message,
    cachedAt: current.cachedAt,
    /** The lab's word on the user (null until it answers). */
    admin: current.admin ?? early?.admin ?? null,
    urgentCount: urgent,
    /** The device has orders to show in this view (before any search). */
    hasOrders: (orders?.length ?? 0) > 0,
    query,
    setQuery,
    shown,
    more: { busy: more.busy || !shownAll, error: more.error },
    loadMore,
    refresh,
    reload,
  };
}
