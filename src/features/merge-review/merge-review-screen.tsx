import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from '../../ui/router.tsx';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { mergeOrders } from '../../api/orders-admin.ts';
import { loadOrderDetail, type OrderDetail } from '../../api/orders-detail.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { orderCardDate, orderShownDate } from '../../client-rules/order-list.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { LoadStatus } from '../../ui/load-status.tsx';
import './merge-review.css';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'loaded'; first: OrderDetail; second: OrderDetail };

/** Why two orders cannot be merged, as the lab would say it; null when they can. */
function mergeProblem(first: OrderDetail, second: OrderDetail): string | null {
  if (first.order.guid === second.order.guid) return 'Choose two different orders to merge.';
  if (first.order.status !== 'open' || second.order.status !== 'open') return 'Only open orders can be merged.';
  if (first.order.photographer_id !== second.order.photographer_id) return "Only one photographer's orders can be merged.";
  return null;
}

function OrderColumn({ label, detail }: { label: string; detail: OrderDetail }) {
  const { order, lineItems } = detail;
  const quantity = lineItems.reduce((n, item) => n + item.quantity, 0);
  return (
    <article className="merge-card" aria-label={`${label}: ${order.order_name}`}>
      <p className="muted">{label}</p>
      <h2>
        <Link to={routePath(ROUTES.orderDetail, { id: order.guid })}>{order.order_name}</Link>
      </h2>
      <dl className="merge-facts">
        <dt>STATUS</dt>
        <dd>{order.status.toUpperCase()}</dd>
        <dt>PHOTOGRAPHER</dt>
        <dd>{order.photographer_name}</dd>
        <dt>DATE</dt>
        <dd>{orderCardDate(orderShownDate(order))}</dd>
        <dt>PHOTOS</dt>
        <dd>{order.photo_count ?? order.images?.length ?? 0}</dd>
        <dt>LINE ITEMS</dt>
        <dd>
          {lineItems.length} ({quantity} prints)
        </dd>
        <dt>SUBTOTAL</dt>
        <dd>{formatMoney(toCents(order.subtotal))}</dd>
      </dl>
      <ul className="merge-thumbs" aria-label={`Photos of ${order.order_name}`}>
        {(order.images ?? []).slice(0, 8).map((p) => (
          <li key={p.guid}>
            <img src={p.smallest_photo} alt={p.photo_file_name} loading="lazy" />
          </li>
        ))}
      </ul>
    </article>
  );
}

/**
 * Merge review (docs/orders.md §2): the two orders side by side, 'Looks good?' and Merge. The lab moves
 * the second order's line items and photos into the first and removes the second, in one go.
 */
export function MergeReviewScreen() {
  const { startOrderId = '', endOrderId = '' } = useParams();
  const navigate = useNavigate();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const ctrl = new AbortController();
    Promise.all([loadOrderDetail(startOrderId, ctrl.signal), loadOrderDetail(endOrderId, ctrl.signal)]).then(
      ([first, second]) => {
        if (!ctrl.signal.aborted) setLoad({ state: 'loaded', first, second });
      },
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        logErrorDetails(err);
        setLoad({ state: 'error', message: errorText(err) });
      },
    );
    return () => ctrl.abort();
  }, [startOrderId, endOrderId]);

  const merge = () => {
    setBusy(true);
    mergeOrders(startOrderId, endOrderId).then(
      () => {
        toast.success('The orders are merged.');
        void navigate(ROUTES.labOrders);
      },
      (err: unknown) => {
        logErrorDetails(err);
        setBusy(false);
        toast.error(`The orders could not be merged: ${errorText(err)}`);
      },
    );
  };

  const problem = load.state === 'loaded' ? mergeProblem(load.first, load.second) : null;
  return (
    <section className="merge-review">
      <h1>MERGE ORDERS</h1>
      <LoadStatus load={load} />
      {load.state === 'loaded' ? (
        <>
          <div className="merge-pair">
            <OrderColumn label="KEEPS" detail={load.first} />
            <OrderColumn label="MERGED INTO IT, THEN REMOVED" detail={load.second} />
          </div>
          {problem ? (
            <p role="alert" className="load-error">
              {problem}
            </p>
          ) : (
            <p className="merge-question">Looks good?</p>
          )}
        </>
      ) : null}
      <div className="merge-actions">
        <Link to={ROUTES.labOrders} className="button">
          CANCEL
        </Link>
        <button type="button" className="button primary" disabled={load.state !== 'loaded' || problem !== null || busy} onClick={merge}>
          {busy ? 'merging…' : 'Merge'}
        </button>
      </div>
    </section>
  );
}
