/** The orders list's actions that ask first: delete and merge (docs/orders.md §4, §5). Kept apart from
 * order-cards.ts so the list's first load does not carry them (they load with their dialogs). */

/** The delete confirmation, word for word (docs/orders.md §5). */
export const DELETE_ORDER_CONFIRM = 'WAIT! Deleting this order cannot be undone. Are you sure you want to delete this order permanently?';

/**
 * The merge selection (docs/orders.md §4): choosing an open order records it and its photographer; a
 * second open order of the same photographer completes the pair (first chosen, then second).
 */
export type MergeSelection = { guid: string; photographerId: string; name: string } | null;

export function mergePair(selection: MergeSelection, order: { guid: string; photographer_id: string; status: string }): [string, string] | null {
  if (!selection || selection.guid === order.guid || order.status !== 'open' || order.photographer_id !== selection.photographerId) return null;
  return [selection.guid, order.guid];
}
