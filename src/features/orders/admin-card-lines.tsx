/**
 * The admin card's own lines (docs/orders.md §2): photographer, shipping, tracking, download-all link,
 * the status dropdown and the merge action. Loaded with the first admin card.
 */
import { useState } from 'react';
import { useNavigate } from '../../ui/router.tsx';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import type { LabOrderListAttributes } from '../../api/lab-orders.ts';
import { mergePair, type MergeSelection } from './order-actions.ts';
import { isOrderStatus, ORDER_STATUSES } from '../../domain/order-status.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { labDb } from '../../offline/db.ts';
import { patchListed } from '../../offline/order-list-store.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import './admin-tools.css';

export interface AdminLinesProps {
  order: LabOrderListAttributes;
  selection: MergeSelection;
  onSelect: (selection: MergeSelection) => void;
  onChanged: () => void;
}

export function AdminCardLines({ order, selection, onSelect, onChanged }: AdminLinesProps) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const pair = mergePair(selection, order);
  const setStatus = (value: string) => {
    if (!isOrderStatus(value)) return;
    setBusy(true);
    // The admin calls load with the first change, not with the list.
    import('../../api/orders-admin.ts')
      .then(({ patchOrderAsAdmin }) => patchOrderAsAdmin(order.guid, { type: 'status', value }))
      // The card shows the lab's new status at once, wherever it sits (only page 1 is read again).
      .then(() => patchListed(labDb, order.guid, { status: value }).catch(logErrorDetails))
      .then(
        () => {
          toast.success(`${order.order_name} is now ${value}.`);
          onChanged();
        },
        (err: unknown) => {
          logErrorDetails(err);
          toast.error(`The status of ${order.order_name} could not be changed: ${errorText(err)}`);
        },
      )
      .finally(() => setBusy(false));
  };
  return (
    <div className="admin-lines">
      <span>
        {order.photographer_name}
        {order.photographer_business ? <span className="muted"> · {order.photographer_business}</span> : null}
      </span>
      <span className="muted">
        {order.local_pickup ? 'LOCAL PICKUP' : `SHIPPING: ${(order.shipping_method ?? 'standard').replace('_', ' ').toUpperCase()}`}
        {order.color_correction === 'as_is' ? ' · PRINT AS IS (NO COLOUR CORRECTION)' : ''}
      </span>
      {order.tracking_url ? (
        <a href={order.tracking_url} target="_blank" rel="noreferrer">
          TRACKING
        </a>
      ) : null}
      {order.download_all_link ? <a href={order.download_all_link}>DOWNLOAD ALL</a> : null}
      <label className="card-status">
        <span className="visually-hidden">Status of {order.order_name}</span>
        <select value={order.status} disabled={busy} onChange={(e) => setStatus(e.target.value)}>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.toUpperCase()}
            </option>
          ))}
        </select>
      </label>
      {order.status === 'open' ? (
        selection?.guid === order.guid ? (
          <button type="button" className="button" onClick={() => onSelect(null)}>
            CANCEL MERGE
          </button>
        ) : pair ? (
          <button type="button" className="button primary" onClick={() => void navigate(routePath(ROUTES.mergeReview, { startOrderId: pair[0], endOrderId: pair[1] }))}>
            MERGE INTO {selection?.name}
          </button>
        ) : selection ? null : (
          <button type="button" className="button" onClick={() => onSelect({ guid: order.guid, photographerId: order.photographer_id, name: order.order_name })}>
            MERGE
          </button>
        )
      ) : null}
    </div>
  );
}
