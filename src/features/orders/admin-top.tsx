/**
 * The admin's part above the orders list (orders.md §2, §4): filter buttons, the merge banner and
 * the 'Urgent Orders:' section. Loaded only for admins: photographers never download it.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { logErrorDetails } from '../../api/errors.ts';
import { getLabOrders, type LabOrderListAttributes } from '../../api/lab-orders.ts';
import type { MergeSelection } from '../../domain/order-actions.ts';
import { FILTER_BUTTONS, RESET_COLOUR } from '../../domain/order-filter-buttons.ts';
import { toggleFilter, type OrderFilter } from '../../domain/order-filters.ts';
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


export interface AdminTopProps {
  filters: ReadonlySet<OrderFilter>;
  setFilters: (next: ReadonlySet<OrderFilter>) => void;
  merge: MergeSelection;
  setMerge: (next: MergeSelection) => void;
  version: number;
  renderAdmin: (o: LabOrderListAttributes) => ReactNode;
}

/** Everything the admin has above the grid: filters, the merge banner, the urgent orders. */
export function AdminTop({ filters, setFilters, merge, setMerge, version, renderAdmin }: AdminTopProps) {
  return (
    <>
      <AdminFilterBar filters={filters} onToggle={(f) => setFilters(toggleFilter(filters, f))} onReset={() => setFilters(new Set())} />
      {merge ? <MergeBanner selection={merge} onCancel={() => setMerge(null)} /> : null}
      <UrgentSection version={version} renderAdmin={renderAdmin} />
    </>
  );
}
