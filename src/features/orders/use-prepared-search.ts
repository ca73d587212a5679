import { useEffect } from 'react';
import type { LabOrderListAttributes } from '../../api/lab-orders.ts';
import { prepareOrderSearch } from '../../client-rules/order-list.ts';
import { idleTask } from '../../offline/next-task.ts';

// Orders whose search text is worked out per idle moment before the first key: small enough that
// a slice stays well inside an idle period (measured: docs/performance.md, "Big lists").
const SEARCH_PREP_SLICE = 500;
// The longest an idle moment is waited for: a busy list still gets its search ready soon.
const SEARCH_PREP_IDLE_MS = 2_000;

/**
 * Works out the search text of the orders shown (matchesOrderSearch keeps it per order object) in
 * idle moments, a slice at a time: without it the first key of a search lower-cased every order
 * the device holds (up to 10,000) in the render that follows it, one long task.
 */
export function usePreparedSearch(orders: readonly LabOrderListAttributes[] | undefined): void {
  useEffect(() => {
    if (!orders?.length) return;
    let live = true;
    void (async () => {
      for (let from = 0; from < orders.length; from += SEARCH_PREP_SLICE) {
        await idleTask(SEARCH_PREP_IDLE_MS);
        if (!live) return;
        for (const order of orders.slice(from, from + SEARCH_PREP_SLICE)) prepareOrderSearch(order);
      }
    })();
    return () => {
      live = false;
    };
  }, [orders]);
}
