/** What an order card of the list shows besides its name (docs/orders.md §2 Orders list, §9). */

export interface CardOrder {
  status: string;
  has_mat?: boolean;
  has_frame?: boolean;
  has_mount?: boolean;
  api_order?: boolean;
  test_print?: boolean;
  has_canvas?: boolean;
  boutique_shipping?: boolean;
  has_notes?: boolean;
  has_admin_notes?: boolean;
  shipping_method?: string | null;
}

/** The indicator boxes in the spec's order: mat, frame, mount, api order, test print, canvas, boutique. */
const INDICATORS: { key: keyof CardOrder; label: string }[] = [
  { key: 'has_mat', label: 'MAT' },
  { key: 'has_frame', label: 'FRAME' },
  { key: 'has_mount', label: 'MOUNT' },
  { key: 'api_order', label: 'API' },
  { key: 'test_print', label: 'TEST' },
  { key: 'has_canvas', label: 'CANVAS' },
  { key: 'boutique_shipping', label: 'BOUTIQUE' },
];

/** Each indicator box with whether it is on for the order. */
export const cardIndicators = (order: CardOrder): { label: string; on: boolean }[] => INDICATORS.map((i) => ({ label: i.label, on: order[i.key] === true }));

/** The rush shipping methods, highlighted red (docs/orders.md §9). */
const RUSH: Record<string, string> = { overnight: 'OVERNIGHT', two_day: 'TWO DAY' };

/** The shipping icon's words, for a non-open order shipped two-day or overnight; null otherwise. */
export const rushShipping = (order: CardOrder): string | null => (order.status !== 'open' && order.shipping_method ? (RUSH[order.shipping_method] ?? null) : null);

/** Only an open order may be deleted (the trash icon, docs/orders.md §2). */
export const canDeleteOrder = (status: string): boolean => status === 'open';
