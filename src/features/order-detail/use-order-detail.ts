import { useCallback, useEffect, useState } from 'react';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { loadOrderDetail, type OrderDetail } from '../../api/orders-detail.ts';
import type { OrderStatus } from '../../domain/order-status.ts';
import { afterFirstScreen } from '../../offline/after-first-screen.ts';

// The orders list's copy is IndexedDB's: its code and the write wait until the detail is shown.
const patchListCopy = (guid: string, change: { status: OrderStatus; order_name: string }) =>
  afterFirstScreen()
    .then(() => Promise.all([import('../../offline/db.ts'), import('../../offline/order-list-store.ts')]))
    .then(([{ labDb }, { patchListed }]) => patchListed(labDb, guid, change));

export type DetailLoad = { state: 'loading' } | { state: 'error'; message: string } | { state: 'loaded'; detail: OrderDetail };

/** The order detail's data, and a reload for after an admin change (which answers the new state). */
export function useOrderDetail(guid: string) {
  const [load, setLoad] = useState<DetailLoad>({ state: 'loading' });

  const fetchDetail = useCallback(
    (signal?: AbortSignal) => {
      loadOrderDetail(guid, signal).then(
        (detail) => {
          if (signal?.aborted) return;
          setLoad({ state: 'loaded', detail });
          // The device's copy of the order (the orders list, offline too) keeps what was just read.
          const { status, order_name } = detail.order;
          patchListCopy(guid, { status, order_name }).catch(logErrorDetails);
        },
        (err: unknown) => {
          if (signal?.aborted) return;
          logErrorDetails(err);
          setLoad({ state: 'error', message: errorText(err) });
        },
      );
    },
    [guid],
  );

  useEffect(() => {
    const ctrl = new AbortController();
    fetchDetail(ctrl.signal);
    return () => ctrl.abort();
  }, [fetchDetail]);

  // A reload keeps the order on screen until the new reading replaces it.
  const reload = useCallback(() => fetchDetail(), [fetchDetail]);
  return { load, reload };
}
