/**
 * Checkout's side of the device's copy of orders (IndexedDB), loaded once the first screen is
 * shown (keep-on-device.ts): checkout reads the lab, so none of this is needed to show it.
 */
import { liveQuery } from 'dexie';
import type { CheckoutOrder } from '../../api/checkout.ts';
import { labDb } from '../../offline/db.ts';
import { applyFullOrder } from '../../offline/order-apply.ts';
import { currentOwner } from '../../offline/current-owner.ts';

/** Puts the lab's answer into the device's copy of the order; a failure is logged, never shown. */
export async function writeCheckoutOrder(order: CheckoutOrder): Promise<void> {
  const owner = currentOwner();
  if (!owner) return;
  try {
    await labDb.transaction('rw', [labDb.orders, labDb.lineItems, labDb.outbox], () => applyFullOrder(labDb, owner, order));
  } catch (err) {
    console.error('checkout: the device copy of the order could not be updated', err);
  }
}

/** Follows how many of the order's line items have a change waiting on this device; answers the unsubscribe. */
export function watchWaitingLineItems(owner: string, orderGuid: string, onCount: (n: number) => void): () => void {
  const subscription = liveQuery(() =>
    labDb.lineItems
      .where('[owner+orderGuid]')
      .equals([owner, orderGuid])
      .filter((row) => row.pending)
      .count(),
  ).subscribe({
    next: onCount,
    error: (err: unknown) => console.error('checkout: could not count the changes waiting', err),
  });
  return () => subscription.unsubscribe();
}
