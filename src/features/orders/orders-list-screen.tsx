import { startTransition, useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from '../../ui/router.tsx';
import type { LabOrderListAttributes } from '../../api/lab-orders.ts';
import { knownAdmin, useSession } from '../../api/session.ts';
import type { MergeSelection } from './order-actions.ts';
import { ADMIN_DEFAULT_FILTERS, filtersParam, type OrderFilter } from '../../domain/order-filters.ts';
import { ROUTES } from '../../app/routes.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { adminCardLines, adminTop } from './admin-parts.ts';
import { OrderCard } from './order-card.tsx';
import { OrderGroups } from './order-groups.tsx';
import { useOrderList } from './use-order-list.ts';
import { LoadStatus } from '../../ui/load-status.tsx';
import { moduleLoader, useModule } from '../../ui/use-module.ts';
import './orders-list.css';

// The admin's tools load on demand: photographers never download them (docs/performance-notes.md §8 budget); a
// known admin's come with the list's code (admin-parts.ts). Parts fetched on demand are shown
// once in, through useModule rather than React.lazy: React reveals a lazy part no sooner than
// its fallback throttle after its fallback showed, and the delete dialog came that late after its
// click (docs/performance-notes.md §3).
// LOAD MORE comes with the first list that has more than a page.
const loadMoreButton = moduleLoader(() => import('./load-more.tsx'));
const deleteDialog = moduleLoader(() => import('./delete-order-dialog.tsx'));

// A phone shows about five cards: the first page's first cards are rendered and painted first,
// the rest of the page right after (in a transition), so on a slow phone the list appears sooner.
const FIRST_RENDER_CARDS = 12;

const NO_FILTERS: ReadonlySet<OrderFilter> = new Set();
const ADMIN_START: ReadonlySet<OrderFilter> = new Set(ADMIN_DEFAULT_FILTERS);

/** Orders list (docs/orders.md §2): NEW LAB ORDER, search, orders grouped by date, a page at a time; the admin's tools. */
export function OrdersListScreen() {
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  const myGuid = useSession((s) => (s.actingAs ? null : (s.session?.guid ?? null)));
  // null until the admin touches a filter: admins start with HIDE OPEN and HIDE MY ORDERS on (docs/orders.md §4).
  const [chosen, setChosen] = useState<ReadonlySet<OrderFilter> | null>(null);
  const [merge, setMerge] = useState<MergeSelection>(null);
  // What the device knows (the sign-in answer, the last list), so an admin's list is asked for
  // with its filters at once; the lab's answer corrects it.
  const [knownIsAdmin, setKnownIsAdmin] = useState(knownAdmin);
  const filters = knownIsAdmin ? (chosen ?? ADMIN_START) : NO_FILTERS;
  const scope = useMemo(() => ({ filters: filtersParam(filters), photographerId: merge?.photographerId ?? null }), [filters, merge]);
  const list = useOrderList(owner, scope, myGuid);
  const { query, setQuery, shown, more, loadMore, refresh, reload } = list;
  if (list.admin !== null && list.admin !== knownIsAdmin) setKnownIsAdmin(list.admin);
  const isAdmin = list.admin ?? knownIsAdmin;
  const top = useModule(adminTop, isAdmin);
  const lines = useModule(adminCardLines, isAdmin);

  // The notice follows the one connectivity store, as the indicator does.
  const online = useConnectivity(isOnline);
  const [allRendered, setAllRendered] = useState(false);
  const [deleting, setDeleting] = useState<LabOrderListAttributes | null>(null);
  const [version, setVersion] = useState(0);
  const changed = useCallback(() => {
    setVersion((v) => v + 1);
    refresh();
  }, [refresh]);

  // Any filter change clears the merge selection (docs/orders.md §4). The same function each render,
  // so the memoised admin part above the list is not drawn again on each key of a search.
  const setFilters = useCallback((next: ReadonlySet<OrderFilter>) => {
    setMerge(null);
    startTransition(() => setChosen(next));
  }, []);

  // The lab applies the filters and the merge selection's photographer (the scope asked for).
  const orders = shown.orders;
  const partial = !allRendered && orders.length > FIRST_RENDER_CARDS;
  const moreButton = useModule(loadMoreButton, shown.hasMore);
  const dialog = useModule(deleteDialog, deleting !== null);
  // The same array while nothing changed: the memoised groups are not drawn again on each key.
  const listed = useMemo(() => (partial ? orders.slice(0, FIRST_RENDER_CARDS) : orders), [partial, orders]);
  useEffect(() => {
    if (partial) startTransition(() => setAllRendered(true));
  }, [partial]);

  const askDelete = useCallback((order: LabOrderListAttributes) => setDeleting(order), []);

  const adminLines = useCallback(
    (order: LabOrderListAttributes) => (lines ? <lines.AdminCardLines order={order} selection={merge} onSelect={(s) => setMerge(s)} onChanged={changed} /> : null),
    [lines, merge, changed],
  );
  const renderCard = useCallback(
    (order: LabOrderListAttributes) => <OrderCard order={order} onDelete={askDelete} admin={isAdmin ? adminLines(order) : undefined} />,
    [askDelete, isAdmin, adminLines],
  );
  const ready = list.status === 'ready';
  const hasOrders = ready && list.hasOrders;
  // With a filter on, an empty answer does not mean there are no orders at all.
  const narrowed = filters.size > 0 || merge !== null;

  return (
    <section className="orders-list">
      <div className="list-toolbar">
        <h1>ORDERS</h1>
        <Link className="button primary" to={ROUTES.newOrder}>
          NEW LAB ORDER
        </Link>
        <label className="search">
          <span className="visually-hidden">Search by Order Name or Status</span>
          <input type="search" placeholder="Search by Order Name or Status" value={query} onChange={(e) => setQuery(e.target.value)} />
        </label>
      </div>
      {top && isAdmin && (hasOrders || narrowed) ? (
        <top.AdminTop filters={filters} setFilters={setFilters} merge={merge} setMerge={setMerge} version={version} urgentCount={list.urgentCount} renderAdmin={adminLines} />
      ) : null}
      <LoadStatus load={{ state: list.status, message: list.message }}>
        <button type="button" className="link" onClick={reload}>
          RELOAD
        </button>
      </LoadStatus>
      {ready && list.cachedAt !== null && (
        <p className="offline-note" role="status">
          {online ? 'Reconnecting.' : 'You are offline.'} These are your orders as of {new Date(list.cachedAt).toLocaleString('en-US')}.
        </p>
      )}
      {ready && !list.hasOrders && !narrowed && (
        <p className="empty">No lab orders yet. Start one with NEW LAB ORDER.</p>
      )}
      {ready && (list.hasOrders || narrowed) && orders.length === 0 && !shown.hasMore && (
        <p className="empty">No orders match your search{isAdmin ? ' and filters' : ''}.</p>
      )}
      <OrderGroups orders={listed} renderCard={renderCard} />
      {ready && orders.length > 0 && !partial ? (
        <p className="muted list-count">{shown.local ? `${orders.length} found among the orders on this device` : `${orders.length} of ${shown.total} orders`}</p>
      ) : null}
      {moreButton && shown.hasMore && !partial ? <moreButton.LoadMore busy={more.busy} error={more.error} onLoad={loadMore} /> : null}
      {/* After a delete the order leaves the device and the list asks the lab again (docs/orders.md §4). */}
      {deleting && dialog ? <dialog.DeleteOrderDialog order={deleting} onClose={() => setDeleting(null)} onDeleted={changed} /> : null}
    </section>
  );
}
