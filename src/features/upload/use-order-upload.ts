import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { ApiError, errorText } from '../../api/errors.ts';
import { getLabOrder } from '../../api/lab-order-upload.ts';
import { readThrough } from '../../offline/cached-read.ts';
import { orderPhotos, orderQueue, orderRejections, orderUploadCounts, refreshOrderPhotos, type OrderUploadCounts } from '../../offline/order-photos.ts';
import { startUploadQueue } from '../../offline/uploads.ts';

/** A page of rows: the screen never renders (or reads) a whole 1,000-photo order at once. */
export const PAGE = 100;

const NO_COUNTS: OrderUploadCounts = { accepted: 0, pending: 0, active: 0, processing: 0, failed: 0, paused: 0, rejected: 0 };

export type OrderInfo = { state: 'loading' } | { state: 'loaded'; name: string; status: string } | { state: 'missing'; message: string } | { state: 'unknown' };

/** The order's name and status, live or as last seen on this device. */
export function useOrderInfo(owner: string, guid: string): OrderInfo {
  const [info, setInfo] = useState<OrderInfo>({ state: 'loading' });
  useEffect(() => {
    const ctrl = new AbortController();
    readThrough(owner, `lab_order|${guid}`, async () => {
      const { attributes } = (await getLabOrder(guid, ctrl.signal)).data;
      return { name: attributes.order_name, status: attributes.status };
    }).then(
      ({ data }) => setInfo({ state: 'loaded', ...data }),
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        // Never seen offline: the photos can still be chosen and wait for the connection.
        if (err instanceof ApiError && err.kind === 'network') setInfo({ state: 'unknown' });
        else setInfo({ state: 'missing', message: errorText(err) });
      },
    );
    // Photos added from another device (or before this device kept them) join the grid.
    refreshOrderPhotos(owner, guid, ctrl.signal).catch(() => {
      // Offline or refused: the photos this device knows are shown.
    });
    return () => ctrl.abort();
  }, [owner, guid]);
  return info;
}

/** Everything the upload screen shows of one order, live from IndexedDB. */
export function useOrderUpload(owner: string, guid: string, photoLimit: number, queueLimit: number) {
  const counts = useLiveQuery(() => orderUploadCounts(owner, guid), [owner, guid], NO_COUNTS);
  const queue = useLiveQuery(() => orderQueue(owner, guid, queueLimit), [owner, guid, queueLimit], []);
  const photos = useLiveQuery(() => orderPhotos(owner, guid, photoLimit), [owner, guid, photoLimit], []);
  const rejections = useLiveQuery(() => orderRejections(owner, guid), [owner, guid], []);
  // Photos waiting from an earlier visit go as soon as the screen opens (the shell does it too).
  const waiting = counts.active > 0;
  useEffect(() => {
    if (waiting && owner) startUploadQueue(owner);
  }, [waiting, owner]);
  return { counts, queue, photos, rejections };
}
