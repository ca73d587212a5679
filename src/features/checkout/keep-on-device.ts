import { useEffect, useState } from 'react';
import type { CheckoutOrder } from '../../api/checkout.ts';
import { useSession } from '../../api/session.ts';
import { afterFirstScreen } from '../../offline/after-first-screen.ts';

// IndexedDB's code and the order's copy there come after the first screen: checkout shows the
// lab's answer, and a phone's first seconds go to that.
const deviceSide = () => afterFirstScreen().then(() => import('./checkout-device.ts'));

/**
 * Puts the lab's answer into the device's copy of the order (the same path the review's refresh
 * takes), so the orders list, the builder and the review show the figures checkout shows. A
 * failure here is logged, never shown: the lab's answer is what checkout acts on.
 */
export async function keepOnDevice(order: CheckoutOrder): Promise<void> {
  try {
    await (await deviceSide()).writeCheckoutOrder(order);
  } catch (err) {
    console.error('checkout: the device copy of the order could not be updated', err);
  }
}

/**
 * How many of this order's line items have a change on its way from this device (added, changed,
 * deleted): the lab's order lacks those until they are sent, so PLACE ORDER waits for them. Null
 * until counted (the count starts once the first screen is shown).
 */
export function useWaitingLineItems(orderGuid: string): number | null {
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  const key = `${owner}|${orderGuid}`;
  const [counted, setCounted] = useState<{ key: string; n: number } | null>(null);
  useEffect(() => {
    let live = true;
    let stop: (() => void) | null = null;
    deviceSide().then(
      ({ watchWaitingLineItems }) => {
        if (live) stop = watchWaitingLineItems(owner, orderGuid, (n) => setCounted({ key, n }));
      },
      (err: unknown) => console.error('checkout: could not count the changes waiting', err),
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [owner, orderGuid, key]);
  return counted?.key === key ? counted.n : null;
}
