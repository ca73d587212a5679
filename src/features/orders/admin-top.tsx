/**
 * The admin's part above the orders list (docs/orders.md §2, §4): filter buttons, the merge banner and
 * the 'Urgent Orders:' section (its own chunk). Loaded only for admins: photographers never download it.
 */
import { memo, type ReactNode } from 'react';
import type { LabOrderListAttributes } from '../../api/lab-orders.ts';
import type { MergeSelection } from './order-actions.ts';
import { FILTER_BUTTONS, RESET_COLOUR } from './order-filter-buttons.ts';
import { toggleFilter, type OrderFilter } from '../../domain/order-filters.ts';
import { moduleLoader, useModule } from '../../ui/use-module.ts';
import './admin-tools.css';

// Asked for only while the lab counts urgent orders (meta.urgent_count): most days there are none.
// Shown once its code is in (useModule: React.lazy would hold it 300 ms past its fallback).
const urgentSection = moduleLoader(() => import('./urgent-section.tsx'));

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
  /** meta.urgent_count of the list's last answer. */
  urgentCount: number;
  renderAdmin: (o: LabOrderListAttributes) => ReactNode;
}

/**
 * Everything the admin has above the grid: filters, the merge banner, the urgent orders (up to a
 * page of cards). Memoised: a key typed in the search box does not draw it again.
 */
export const AdminTop = memo(function AdminTop({ filters, setFilters, merge, setMerge, version, urgentCount, renderAdmin }: AdminTopProps) {
  const urgent = useModule(urgentSection, urgentCount > 0);
  return (
    <>
      <AdminFilterBar filters={filters} onToggle={(f) => setFilters(toggleFilter(filters, f))} onReset={() => setFilters(new Set())} />
      {merge ? <MergeBanner selection={merge} onCancel={() => setMerge(null)} /> : null}
      {urgent && urgentCount > 0 ? <urgent.UrgentSection version={version} renderAdmin={renderAdmin} /> : null}
    </>
  );
});
