import { lazy, memo, Suspense, useMemo, type ReactNode } from 'react';
import type { LabOrderListAttributes } from '../../api/lab-orders.ts';
import { groupOrdersByDate } from '../../domain/order-list.ts';

// Up to this many cards the list is plain HTML (the first pages: no virtualiser code to fetch);
// beyond it only the rows in view are in the page, so 10,000 orders scroll as smoothly as 50.
export const VIRTUAL_FROM = 200;

const VirtualGroups = lazy(() => import('./virtual-groups.tsx').then((m) => ({ default: m.VirtualGroups })));

export type RenderCard = (order: LabOrderListAttributes) => ReactNode;
export type Group = { heading: string; orders: LabOrderListAttributes[] };

/** Every group in the page: one heading per date, '{Month day, year} ORDERS' (orders.md §2). */
export function PlainGroups({ groups, renderCard }: { groups: Group[]; renderCard: RenderCard }) {
  return groups.map((group) => (
    <section key={group.heading} aria-label={group.heading}>
      <h2 className="date-heading">{group.heading}</h2>
      <ul className="order-grid">
        {group.orders.map((order) => (
          <li key={order.guid}>{renderCard(order)}</li>
        ))}
      </ul>
    </section>
  ));
}

/**
 * The orders under their date headings, newest first; virtualised once there are many. Memoised:
 * a keystroke in the search box draws the box, not the list (the list follows the deferred query).
 */
export const OrderGroups = memo(function OrderGroups({ orders, renderCard }: { orders: LabOrderListAttributes[]; renderCard: RenderCard }) {
  const groups = useMemo(() => groupOrdersByDate(orders), [orders]);
  if (orders.length <= VIRTUAL_FROM) return <PlainGroups groups={groups} renderCard={renderCard} />;
  return (
    <Suspense fallback={<p role="status">loading</p>}>
      <VirtualGroups groups={groups} renderCard={renderCard} />
    </Suspense>
  );
});
