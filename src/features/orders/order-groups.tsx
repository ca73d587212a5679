import { memo, useEffect, useMemo, useState } from 'react';
import { logErrorDetails } from '../../api/errors.ts';
import type { LabOrderListAttributes } from '../../api/lab-orders.ts';
import { groupOrdersByDate } from '../../client-rules/order-list.ts';
import { moduleLoader } from '../../ui/use-module.ts';
import type { Group, RenderCard } from './order-group.ts';

// Up to this many cards the list is plain HTML (the first pages: no virtualiser code to fetch);
// beyond it only the rows in view are in the page, so 10,000 orders scroll as smoothly as 50.
export const VIRTUAL_FROM = 200;
// The windowed list's code is fetched once the list holds this many cards (the second page is in),
// so it is there when the list passes VIRTUAL_FROM and the swap never waits for it mid-scroll.
const FETCH_VIRTUAL_FROM = 100;

// The windowed list's code, fetched once for every list of the visit; a failed fetch is asked
// again by the next list that wants it (the plain list stays meanwhile).
const windowedList = moduleLoader(() => import('./virtual-groups.tsx'));

/** Every group in the page: one heading per date, '{Month day, year} ORDERS' (docs/orders.md §2). */
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
 * The orders under their date headings, newest first; windowed once there are many. Memoised:
 * a keystroke in the search box draws the box, not the list (the list follows the deferred query).
 * The plain list stays until the windowed list's code is in: never a 'loading' in its place.
 */
export const OrderGroups = memo(function OrderGroups({ orders, renderCard }: { orders: LabOrderListAttributes[]; renderCard: RenderCard }) {
  const groups = useMemo(() => groupOrdersByDate(orders), [orders]);
  const [windowed, setWindowed] = useState(windowedList.current() ?? null);
  const wanted = orders.length >= FETCH_VIRTUAL_FROM;
  useEffect(() => {
    if (wanted && !windowed) windowedList.load().then(setWindowed, logErrorDetails);
  }, [wanted, windowed]);
  if (orders.length <= VIRTUAL_FROM) return <PlainGroups groups={groups} renderCard={renderCard} />;
  // Until the window's code is in, the first VIRTUAL_FROM cards: a list that came in one large
  // answer (10,000 orders) was drawn whole, seconds of main thread, whenever its answer beat the
  // window's code (seen on a busy machine).
  if (!windowed) return <PlainGroups groups={firstCards(groups, VIRTUAL_FROM)} renderCard={renderCard} />;
  return <windowed.VirtualGroups groups={groups} renderCard={renderCard} />;
});

/** The groups cut after `max` cards, newest first. */
function firstCards(groups: Group[], max: number): Group[] {
  const out: Group[] = [];
  let left = max;
  for (const group of groups) {
    if (left <= 0) break;
    out.push(group.orders.length <= left ? group : { ...group, orders: group.orders.slice(0, left) });
    left -= group.orders.length;
  }
  return out;
}
