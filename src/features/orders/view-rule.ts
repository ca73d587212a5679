/**
 * The list's views as the device can check them: an admin's filters and the merge selection's
 * photographer, applied by the lab (docs/orders.md §5) and, for the orders already on the device, here.
 */
import type { LabOrderListAttributes } from '../../api/lab-orders.ts';
import { passesFilters } from './order-filter-rules.ts';
import { ORDER_FILTERS, type OrderFilter } from '../../domain/order-filters.ts';
import type { ListScope } from './first-page.ts';

const isFilter = (f: string): f is OrderFilter => (ORDER_FILTERS as readonly string[]).includes(f);

/**
 * Whether an order on the device belongs to the view: null for the unfiltered list (every order
 * the user may see). Used before the lab answers a view and offline, to show what the device has.
 */
export function viewRule(scope: ListScope, myGuid: string | null): ((a: LabOrderListAttributes) => boolean) | null {
  const filters = new Set(scope.filters.split(',').filter(isFilter));
  const photographer = scope.photographerId;
  if (filters.size === 0 && !photographer) return null;
  return (a) => passesFilters(a, filters, myGuid) && (!photographer || a.photographer_id === photographer);
}

/**
 * The rule a filtered page of the lab reconciles the device's rows with, when the device checks
 * it exactly as the lab does: each flag the list carries, open or not, whose order it is. PRINTS
 * reads a flag the lab keeps and the list does not carry (an order with plain prints among framed
 * ones), so a PRINTS page only adds rows. Null for a view that reconciles nothing; the unfiltered
 * view reconciles every row in a page's range ({ inView: null }).
 */
export function reconcileRule(scope: ListScope, myGuid: string | null): { inView: ((a: LabOrderListAttributes) => boolean) | null } | null {
  const rule = viewRule(scope, myGuid);
  if (!rule) return { inView: null };
  if (scope.filters.split(',').includes('prints') || (scope.filters.split(',').includes('hide_mine') && !myGuid)) return null;
  return { inView: rule };
}
