/**
 * The admin's part of the orders list (orders.md §2, §4): filter buttons, the 'Urgent Orders:'
 * section, the admin card's lines (status dropdown, merge action) and the merge banner. Loaded
 * only for admins: photographers never download it.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { getLabOrders, type LabOrderListAttributes } from '../../api/lab-orders.ts';
import { patchOrderAsAdmin } from '../../api/orders-admin.ts';
import { mergePair, type MergeSelection } from '../../domain/order-actions.ts';
import { isOrderStatus, ORDER_STATUSES } from '../../domain/order-detail.ts';
import { FILTER_BUTTONS, RESET_COLOUR, type OrderFilter } from '../../domain/order-filters.ts';
import { ROUTES, routePath } from '../../domain/paths.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { OrderCard } from './order-card.tsx';
import './admin-tools.css';

export function AdminFilterBar({ filters, onToggle, onReset }: { filters: ReadonlySet<OrderFilter>; onToggle: (f: OrderFilter) => void; onReset: () => void }) {
  return (
    <div className="filter-bar" role="group" aria-label="Filters">
      {FILTER_BUTTONS.map((b) => (
        <button key={b.filter} type="button" className={`filter-button filter-${b.colour}`} aria-pressed={filters.has(b.filter)} onClick={() => onToggle(b.filter)}>
          {b.label}
        </button>
      ))}
      <button type="button" className={`filter-button filter-${RESET_COLOUR}`} onClick={onReset}>
        RESET
      </button>
    </div>
  );
}

/** 'Urgent Orders:' above the grid, only while some order is flagged urgent (orders.md §2). */
export function UrgentSection({ version, renderAdmin }: { version: number; renderAdmin: (o: LabOrderListAttributes) => React.ReactNode }) {
  const [urgent, setUrgent] = useState<LabOrderListAttributes[]>([]);
  useEffect(() => {
    const ctrl = new AbortController();
    getLabOrders({ urgent: true, signal: ctrl.signal }).then(
      (list) => setUrgent(list.data.map((d) => d.attributes).filter((o) => o.urgent)),
      (err: unknown) => {
        if (!ctrl.signal.aborted) logErrorDetails(err);
      },
    );
    return () => ctrl.abort();
    // `version` is the list's change count: each change (status, delete, urgent) asks again.
    // oxlint-disable-next-line react/exhaustive-deps
  }, [version]);
  if (urgent.length === 0) return null;
  return (
    <section className="urgent-orders" aria-labelledby="urgent-heading">
      <h2 id="urgent-heading">Urgent Orders:</h2>
      <ul className="order-grid">
        {urgent.map((o) => (
          <li key={o.guid}>
            <OrderCard order={o} admin={renderAdmin(o)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function MergeBanner({ selection, onCancel }: { selection: NonNullable<MergeSelection>; onCancel: () => void }) {
  return (
    <p className="merge-banner" role="status">
      Merging {selection.name}: choose the order to merge into it (only this photographer&apos;s orders are shown).{' '}
      <button type="button" className="button" onClick={onCancel}>
        CANCEL MERGE
      </button>
    </p>
  );
}

export interface AdminLinesProps {
  order: LabOrderListAttributes;
  selection: MergeSelection;
  onSelect: (selection: MergeSelection) => void;
  onChanged: () => void;
}

/** The admin card's own lines: photographer, shipping, tracking, download-all link, status, merge. */
export function AdminCardLines({ order, selection, onSelect, onChanged }: AdminLinesProps) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const pair = mergePair(selection, order);
  const setStatus = (value: string) => {
    if (!isOrderStatus(value)) return;
    setBusy(true);
    patchOrderAsAdmin(order.guid, { type: 'status', value })
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
        {order.color_correction === 'as_is' ? ' · PRINT AS IS' : ''}
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
