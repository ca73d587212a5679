/**
 * What the orders list shows before and while the device's table catches up: the lab's fresh
 * first page, and the objects of the rows shown before (so a card is not drawn again).
 */
import type { LabOrderList, LabOrderListAttributes } from '../../api/lab-orders.ts';
import { listablePage, pageRange, sameListed } from '../../offline/order-list-store.ts';

/** The guids of a page's orders, in its order. */
export const guidsOf = (page: LabOrderList) => page.data.map((d) => d.attributes.guid);

/** What a read of the table is of: where the pages reach, or how many ids the lab answered. */
export const readingOf = (floor: number | null, ids: readonly string[] | null) => `${floor}|${ids?.length}`;

/**
 * A view's first page as the lab answered it, shown at once while it is written to the table and
 * read back (on a first visit the device's database is still being created then, which takes a
 * while: docs/performance-notes.md §5).
 * The table's read takes over as soon as it reflects the page (`reading`).
 */
export interface FreshPage {
  key: string;
  generation: number;
  /** The lab's answer it was made of. */
  page: LabOrderList;
  reading: string;
  rows: LabOrderListAttributes[];
  total: number;
  admin: boolean;
}

export function freshPage(key: string, generation: number, scoped: boolean, page: LabOrderList): FreshPage {
  const reading = scoped ? readingOf(null, guidsOf(page)) : readingOf(pageRange(page, null).lower, null);
  return { key, generation, page, reading, rows: listablePage(page), total: page.meta.total, admin: page.meta.current_user_is_admin };
}

/** The objects shown: of the last read of the table, and of the lab's last fresh first page. */
export interface ShownBefore {
  byGuid: Map<string, LabOrderListAttributes>;
  fresh: Map<string, LabOrderListAttributes>;
}

/** The lab's fresh page's objects, for the read of the table that follows to keep. */
export function keepFresh(before: ShownBefore, rows: LabOrderListAttributes[]): void {
  before.fresh = new Map(rows.map((r) => [r.guid, r]));
}

/** The rows read, with the objects shown before for orders whose fields did not change. */
export function sameObjects(before: ShownBefore, rows: LabOrderListAttributes[]): LabOrderListAttributes[] {
  const next = new Map<string, LabOrderListAttributes>();
  const out = rows.map((r) => {
    const old = before.byGuid.get(r.guid) ?? before.fresh.get(r.guid);
    const kept = old && sameListed(old, r) ? old : r;
    next.set(r.guid, kept);
    return kept;
  });
  before.byGuid = next;
  return out;
}
