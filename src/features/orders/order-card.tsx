import { memo, type ReactNode } from 'react';
import { Link } from '../../ui/router.tsx';
import type { LabOrderListAttributes } from '../../api/lab-orders.ts';
import { canDeleteOrder, cardIndicators, rushShipping } from './order-cards.ts';
import { orderCardDate, orderShownDate } from '../../client-rules/order-list.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';

// Small line icons drawn inline: no icon font or image request for a list of thousands of cards.
const NOTE_PATH = 'M4 3h12l4 4v14H4z M8 10h8 M8 14h8 M8 18h5';
const LOCK_PATH = 'M6 11h12v10H6z M9 11V8a3 3 0 0 1 6 0v3';
const TRUCK_PATH = 'M2 6h12v10H2z M14 10h4l3 3v3h-7z M6 19a2 2 0 1 0 0-.01 M17 19a2 2 0 1 0 0-.01';
const TRASH_PATH = 'M4 7h16 M9 7V4h6v3 M6 7l1 14h10l1-14 M10 11v6 M14 11v6';

/** An icon; with an empty label it is decoration next to words that say the same. */
export function Icon({ path, label }: { path: string; label: string }) {
  const named = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <svg className="card-icon" viewBox="0 0 24 24" focusable="false" {...named}>
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export interface CardProps {
  order: LabOrderListAttributes;
  /** The delete action (the trash icon of open orders); absent where the card offers none. */
  onDelete?: (order: LabOrderListAttributes) => void;
  /** The admin card's own lines (lazy: only admins download them). */
  admin?: ReactNode;
}

/**
 * One order of the list (docs/orders.md §2): its name to its detail, status, date in capitals,
 * indicator boxes, notes and rush-shipping icons, and the trash icon while open.
 */
export const OrderCard = memo(function OrderCard({ order, onDelete, admin }: CardProps) {
  const rush = rushShipping(order);
  return (
    <article className={`order-card${order.urgent ? ' is-urgent' : ''}`} aria-label={order.order_name}>
      <div className="card-top">
        <Link className="card-name" to={routePath(ROUTES.orderDetail, { id: order.guid })}>
          {order.order_name}
        </Link>
        {onDelete && canDeleteOrder(order.status) ? (
          <button type="button" className="icon-button" aria-label={`Delete order ${order.order_name}`} onClick={() => onDelete(order)}>
            <Icon path={TRASH_PATH} label="" />
          </button>
        ) : null}
      </div>
      <div className="card-line">
        <span className={`status status-${order.status}`}>{order.status.toUpperCase()}</span>
        {order.has_notes ? <Icon path={NOTE_PATH} label="Has notes" /> : null}
        {order.has_admin_notes ? <Icon path={LOCK_PATH} label="Has admin notes" /> : null}
        {rush ? (
          <span className="rush-ship">
            <Icon path={TRUCK_PATH} label="" />
            {rush}
          </span>
        ) : null}
      </div>
      <span className="muted">{orderCardDate(orderShownDate(order))}</span>
      <ul className="indicators" aria-label="Finishing and kind">
        {cardIndicators(order).map((i) => (
          <li key={i.label} className={i.on ? 'is-on' : undefined} aria-label={`${i.label}: ${i.on ? 'yes' : 'no'}`}>
            {i.label}
          </li>
        ))}
      </ul>
      {admin}
    </article>
  );
});
