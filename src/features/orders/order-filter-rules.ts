/**
 * The admin's filters as the device checks them on the orders it has (docs/orders.md §5), apart from
 * order-filters.ts so that a photographer's list, which has no filters, never downloads them.
 */
import type { OrderFilter } from '../../domain/order-filters.ts';

/** What a filter looks at on an order of the list. */
export interface FilterableOrder {
  status: string;
  photographer_id: string;
  has_mat?: boolean;
  has_mount?: boolean;
  has_frame?: boolean;
  has_canvas?: boolean;
  api_order?: boolean;
  test_print?: boolean;
  boutique_shipping?: boolean;
}

/** A print with no finishing at all: neither mat, mount, frame nor canvas. */
const plainPrints = (o: FilterableOrder) => !o.has_mat && !o.has_mount && !o.has_frame && !o.has_canvas;

/**
 * Whether an order passes every filter that is on (AND-combined, docs/orders.md §5): mat, mount,
 * frame, canvas need the has_ flag; api order, test print, boutique their flag; prints an order
 * with no finishing; hide open drops open orders; hide my orders drops the viewing admin's own.
 */
export function passesFilters(order: FilterableOrder, filters: ReadonlySet<OrderFilter>, myPhotographerId: string | null): boolean {
  for (const f of filters) {
    const pass =
      f === 'mat' ? order.has_mat
      : f === 'mount' ? order.has_mount
      : f === 'frame' ? order.has_frame
      : f === 'canvas' ? order.has_canvas
      : f === 'prints' ? plainPrints(order)
      : f === 'api_order' ? order.api_order
      : f === 'test_print' ? order.test_print
      : f === 'boutique' ? order.boutique_shipping
      : f === 'hide_open' ? order.status !== 'open'
      : myPhotographerId === null || order.photographer_id !== myPhotographerId;
    if (!pass) return false;
  }
  return true;
}
