import { startTransition, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useSession } from '../../api/session.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { groupOrdersByDate, orderCardDate, orderShownDate } from '../../domain/order-list.ts';
import { ROUTES, routePath } from '../../domain/paths.ts';
import { LoadMore } from './load-more.tsx';
import { useOrderList } from './use-order-list.ts';

// A phone shows about five cards: the first page's first cards are rendered and painted first,
// the rest of the page right after (in a transition), so on a slow phone the list appears sooner.
const FIRST_RENDER_CARDS = 12;

/** Orders list (orders.md §2): NEW LAB ORDER, search, orders grouped by date, a page at a time. */
export function OrdersListScreen() {
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  const { load, query, setQuery, shown, more, loadMore, reload } = useOrderList(owner);
  // The notice follows the one connectivity store, as the indicator does.
  const online = useConnectivity(isOnline);
  const [allRendered, setAllRendered] = useState(false);
  const partial = !allRendered && shown.orders.length > FIRST_RENDER_CARDS;
  useEffect(() => {
    if (partial) startTransition(() => setAllRendered(true));
  }, [partial]);
  const groups = useMemo(() => groupOrdersByDate(partial ? shown.orders.slice(0, FIRST_RENDER_CARDS) : shown.orders), [shown.orders, partial]);

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
          <button type="button" className="link" onClick={reload}>
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
      {load.state === 'loaded' && load.list.data.length > 0 && groups.length === 0 && !shown.hasMore && <p className="empty">No orders match your search.</p>}
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
      {load.state === 'loaded' && shown.orders.length > 0 && !partial ? (
        <p className="muted list-count">
          {shown.local ? `${shown.orders.length} found among the orders loaded` : `${shown.orders.length} of ${shown.total} orders`}
        </p>
      ) : null}
      {shown.hasMore && !partial ? <LoadMore busy={more.busy} error={more.error} onLoad={loadMore} /> : null}
    </section>
  );
}
