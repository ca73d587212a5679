/**
 * The quantity of a line item (docs/orders.md §5): digits only, 1 by default; a decrease that would
 * reach 0 or below is ignored, and input that is not a valid quantity is ignored (the quantity
 * keeps its last good value).
 */

export const DEFAULT_QUANTITY = 1;

/**
 * The most prints of one line item. The spec sets none; this keeps a mistyped '10000000' from
 * becoming an order nobody meant, and matches the price quote's limit on the server.
 */
export const MAX_QUANTITY = 10_000;

export const isValidQuantity = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_QUANTITY;

/** The quantity after the box was typed into: the digits' value when valid, else the current one. */
export function typedQuantity(current: number, text: string): number {
  if (!/^\d+$/.test(text)) return current;
  const value = Number(text);
  return isValidQuantity(value) ? value : current;
}

/** The quantity after an arrow: a step that would leave 1 to MAX_QUANTITY is ignored. */
export function steppedQuantity(current: number, delta: number): number {
  const next = current + delta;
  return isValidQuantity(next) ? next : current;
}

/** The body the client sends to update_quantity (docs/orders.md §7). */
export const quantityUpdateBody = (quantity: number) => ({ line_items: [{ quantity }] });

/**
 * The quantity in an update_quantity body, in either shape the spec shows
 * ({line_items:[{quantity}]} or {qty}); null when neither holds a valid quantity.
 */
export function readQuantityUpdate(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as { line_items?: unknown; qty?: unknown };
  const first = Array.isArray(record.line_items) && record.line_items.length === 1 ? (record.line_items[0] as { quantity?: unknown } | null) : undefined;
  const value = first && typeof first === 'object' ? first.quantity : record.qty;
  return isValidQuantity(value) ? value : null;
}
