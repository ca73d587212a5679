import { useEffect, useState, type ReactNode } from 'react';
import { logErrorDetails } from '../../api/errors.ts';
import { getLabOrders, type LabOrderListAttributes } from '../../api/lab-orders.ts';
import { OrderCard } from './order-card.tsx';

/** 'Urgent Orders:' above the grid, only while some order is flagged urgent (orders.md §2). */
export function UrgentSection({ version, renderAdmin }: { version: number; renderAdmin: (o: LabOrderListAttributes) => ReactNode }) {
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
