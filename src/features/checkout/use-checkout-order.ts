import { useCallback, useEffect, useRef, useState } from 'react';
import { getProfile, type Profile } from '../../api/account.ts';
import { getCheckoutOrder, type CheckoutOrder } from '../../api/checkout.ts';
import { errorText } from '../../api/errors.ts';
import { CHECKOUT_NEEDS_CONNECTION } from '../../client-rules/checkout.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { keepOnDevice } from './keep-on-device.ts';

export type CheckoutLoad =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; order: CheckoutOrder; profile: Profile };

/**
 * The checkout order and the photographer's profile, read from the lab (checkout needs a
 * connection: docs/lab-rules.md §3). `change` runs one call that answers the order, shows
 * 'loading...' meanwhile (`updating`), and keeps each answer on the device too.
 */
export function useCheckoutOrder(orderGuid: string) {
  const online = useConnectivity(isOnline);
  const [fetched, setLoad] = useState<CheckoutLoad>({ state: 'loading' });
  // Offline with nothing read yet: say so plainly rather than wait.
  const load: CheckoutLoad = fetched.state !== 'ready' && !online ? { state: 'failed', message: CHECKOUT_NEEDS_CONNECTION } : fetched;
  const [updating, setUpdating] = useState(false);
  // The newest read wins: an older answer arriving late never replaces a newer one.
  const reads = useRef(0);

  const read = useCallback(async (): Promise<void> => {
    const n = ++reads.current;
    try {
      const [order, profile] = await Promise.all([getCheckoutOrder(orderGuid), getProfile()]);
      if (n !== reads.current) return;
      setLoad({ state: 'ready', order, profile });
      void keepOnDevice(order);
    } catch (err) {
      if (n === reads.current) setLoad((l) => (l.state === 'ready' ? l : { state: 'failed', message: `ERROR LOADING: ${errorText(err)}` }));
      throw err;
    }
  }, [orderGuid]);

  useEffect(() => {
    if (online) read().catch(() => undefined);
  }, [online, read]);

  /** Runs a call answering the checkout order; throws its failure for the caller to word. */
  const change = useCallback(async (call: () => Promise<CheckoutOrder>): Promise<CheckoutOrder> => {
    setUpdating(true);
    try {
      const order = await call();
      reads.current += 1;
      setLoad((l) => (l.state === 'ready' ? { ...l, order } : l));
      void keepOnDevice(order);
      return order;
    } finally {
      setUpdating(false);
    }
  }, []);

  /** Runs a call answering the profile (a new address or card set on the order), then reads the order again. */
  const changeProfile = useCallback(
    (call: () => Promise<Profile>): Promise<void> => {
      setUpdating(true);
      const n = ++reads.current;
      return call()
        .then((profile) => Promise.all([profile, getCheckoutOrder(orderGuid)]))
        .then(([profile, order]) => {
          if (n === reads.current) setLoad({ state: 'ready', order, profile });
          void keepOnDevice(order);
        })
        .finally(() => setUpdating(false));
    },
    [orderGuid],
  );

  return { load, online, updating, change, changeProfile, reload: read };
}
