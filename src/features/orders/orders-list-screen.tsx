import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { getLabOrders, type LabOrderList } from '../../api/lab-orders.ts';
import { rememberAdmin, useSession } from '../../api/session.ts';
import { readThrough } from '../../offline/cached-read.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { groupOrdersByDate, matchesOrderSearch, orderCardDate, orderShownDate } from '../../domain/order-list.ts';
import { ROUTES, routePath } from '../../domain/paths.ts';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'loaded'; list: LabOrderList; cachedAt: number | null };

/** Orders list (orders.md §2): NEW LAB ORDER, search, orders grouped by date. */
export function OrdersListScreen() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [query, setQuery] = useState('');
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');

  const fetchOrders = useCallback((signal?: AbortSignal) => {
    // Offline, the last list fetched on this device is shown (src/offline/cached-read.ts).
    readThrough(owner, 'lab_orders', () => getLabOrders(signal)).then(
      ({ data: list, cachedAt }) => {
        if (cachedAt === null) rememberAdmin(list.meta.current_user_is_admin);
        setLoad({ state: 'loaded', list, cachedAt });
      },
      (err: unknown) => {
        if (signal?.aborted) return;
        logErrorDetails(err);
        setLoad({ state: 'error', message: errorText(err) });
        // The list clears its query on failure (orders.md §8).
        setQuery('');
      },
    );
  }, [owner]);

  useEffect(() => {
    const ctrl = new AbortController();
    fetchOrders(ctrl.signal);
    return () => ctrl.abort();
  }, [fetchOrders]);

  // The notice follows the one connectivity store, as the indicator does: when the lab is back,
  // the kept copy is replaced by a live list (and the notice goes with it).
  const online = useConnectivity(isOnline);
  const showingCopy = load.state === 'loaded' && load.cachedAt !== null;
  useEffect(() => {
    if (!online || !showingCopy) return;
    const ctrl = new AbortController();
    fetchOrders(ctrl.signal);
    return () => ctrl.abort();
  }, [online, showingCopy, fetchOrders]);

  const groups = useMemo(() => {
    if (load.state !== 'loaded') return [];
    const orders = load.list.data.map((d) => d.attributes).filter((o) => matchesOrderSearch(o, query));
    return groupOrdersByDate(orders);
  }, [load, query]);

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
      {load.state === 'loading' && <p role="status">loading</p>}
      {load.state === 'error' && (
        <p role="alert" className="load-error">
          ERROR LOADING: {load.message}{' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              setLoad({ state: 'loading' });
              fetchOrders();
            }}
          >
            RELOAD
          </button>
        </p>
      )}
      {load.state === 'loaded' && load.cachedAt !== null && (
        <p className="offline-note" role="status">
          {online ? 'Reconnecting.' : 'You are offline.'} These are your orders as of {new Date(load.cachedAt).toLocaleString('en-US')}.
        </p>
      )}
      {load.state === 'loaded' && load.list.data.length === 0 && (
        <p className="empty">No lab orders yet. Start one with NEW LAB ORDER.</p>
      )}
      {load.state === 'loaded' && load.list.data.length > 0 && groups.length === 0 && <p className="empty">No orders match your search.</p>}
      {groups.map((group) => (
        <section key={group.heading} aria-label={group.heading}>
          <h2 className="date-heading">{group.heading}</h2>
          <ul className="order-grid">
            {group.orders.map((order) => (
              <li key={order.guid} className="order-card">
                <Link to={routePath(ROUTES.orderDetail, { id: order.guid })}>{order.order_name}</Link>
                <span className={`status status-${order.status}`}>{order.status.toUpperCase()}</span>
                <span className="muted">{orderCardDate(orderShownDate(order))}</span>
                {load.state === 'loaded' && load.list.meta.current_user_is_admin ? (
                  <span className="muted">
                    {order.photographer_name}
                    {order.photographer_business ? ` · ${order.photographer_business}` : ''}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
