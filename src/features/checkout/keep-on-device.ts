import { useLiveQuery } from 'dexie-react-hooks';
import type { CheckoutOrder } from '../../api/checkout.ts';
import { useSession } from '../../api/session.ts';
import { labDb } from '../../offline/db.ts';
import { applyFullOrder } from '../../offline/order-apply.ts';
import { currentOwner } from '../../offline/outbox-sync.ts';

/**
 * Puts the lab's answer into the device's copy of the order (the same path the review's refresh
 * takes), so the orders list, the builder and the review show the figures checkout shows. A
 * failure here is logged, never shown: the lab's answer is what checkout acts on.
 */
export async function keepOnDevice(order: CheckoutOrder): Promise<void> {
  const owner = currentOwner();
  if (!owner) return;
  try {
    await labDb.transaction('rw', [labDb.orders, labDb.lineItems, labDb.outbox], () => applyFullOrder(labDb, owner, order));
  } catch (err) {
    console.error('checkout: the device copy of the order could not be updated', err);
  }
}

/**
 * How many of this order's line items have a change on its way from this device (added, changed,
 * deleted): the lab's order lacks those until they are sent, so PLACE ORDER waits for them.
 */
export function useWaitingLineItems(orderGuid: string): number {
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  return (
    useLiveQuery(
      () =>
        labDb.lineItems
          .where('[owner+orderGuid]')
          .equals([owner, orderGuid])
          .filter((row) => row.pending)
          .count(),
      [owner, orderGuid],
    ) ?? 0
  );
}
