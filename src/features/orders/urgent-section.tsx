import { useEffect, useState, type ReactNode } from 'react';
import { logErrorDetails } from '../../api/errors.ts';
import { getLabOrders, type LabOrderListAttributes } from '../../api/lab-orders.ts';
import { useSession } from '../../api/session.ts';
import { labDb } from '../../offline/db.ts';
import { useLiveQuery } from '../../offline/live-query.ts';
import { fillListPage, readListedByIds } from '../../offline/order-list-store.ts';
import { OrderCard } from './order-card.tsx';

const isUrgent = (o: LabOrderListAttributes) => o.urgent === true;

/**
 * 'Urgent Orders:' above the grid, only while some order is flagged urgent (docs/orders.md §2). Like
 * the grid, it shows rows of the orders table: the lab's answer fills them and the section lists
 * the orders it answered. It reconciles nothing: the grid is on screen with it, and an order no
 * longer urgent is still one of the grid's.
 */
export function UrgentSection({ version, renderAdmin }: { version: number; renderAdmin: (o: LabOrderListAttributes) => ReactNode }) {
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  const [ids, setIds] = useState<string[]>([]);
  useEffect(() => {
    const ctrl = new AbortController();
    getLabOrders({ urgent: true, signal: ctrl.signal })
      .then(async (page) => {
        await fillListPage(labDb, owner, page, { range: null, inView: null });
        if (!ctrl.signal.aborted) setIds(page.data.map((d) => d.attributes.guid));
      })
      .catch((err: unknown) => {
        if (!ctrl.signal.aborted) logErrorDetails(err);
      });
    return () => ctrl.abort();
    // `version` is the list's change count: each change (status, delete, urgent) asks again.
    // oxlint-disable-next-line react/exhaustive-deps
  }, [version, owner]);
  const urgent = useLiveQuery(() => readListedByIds(labDb, owner, ids), [owner, ids])?.filter(isUrgent) ?? [];
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
