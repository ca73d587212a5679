import { useEffect, useRef, useState } from 'react';
import { labDb, type PhotoEntry, type RejectionEntry, type UploadEntry } from '../../offline/db.ts';
import { ApiError, errorText } from '../../api/errors.ts';
import { getLabOrder } from '../../api/lab-order-upload.ts';
import { readThrough } from '../../offline/cached-read.ts';
import { orderPhotos, orderQueue, orderRejections, orderUploadCounts, refreshOrderPhotos, type OrderUploadCounts } from '../../upload/page/order-photos.ts';
import { startUploadQueue } from '../../upload/page/uploads.ts';
import { usePacedQuery } from './use-paced-query.ts';

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
    return () => ctrl.abort();
  }, [owner, guid]);
  return info;
}

/** The lab's list is read this often while it still makes previews of photos that just arrived... */
export const LAB_PHOTOS_EVERY_MS = 3_000;
/** ...for this many reads after the last photo arrived (its job is usually done within them)... */
const LAB_PHOTOS_SOON_READS = 10;
/**
 * ...then less and less often, up to this: a big batch's previews take minutes. While this
 * device is still sending photos to the order the list is read only this often too: the grid
 * shows the worker's own thumbnails meanwhile, and every read makes the lab sign an address for
 * each photo of the order (a large order: several pages at every read), work that competed with
 * receiving the photos themselves (docs/performance-notes.md §7).
 */
export const LAB_PHOTOS_MAX_MS = 30_000;

/**
 * What the lab learns of the order's photos after accepting them reaches the grid without a
 * reload: its thumbnails once the derivatives job made them, and 'CANNOT BE PRINTED' when that
 * job found a photo's image data damaged. The list is read when the screen opens (photos added
 * from another device join too), then again while the lab still works on some photo: every few
 * seconds while photos arrive and for half a minute after, then less and less often, and not at
 * all once every photo is done (until more arrive). While `sending` (this device's queue is
 * working on the order), every 30 s at most; when it stops, at once.
 */
export function useLabPhotoUpdates(owner: string, guid: string, accepted: number, sending: boolean): void {
  const acceptedNow = useRef(accepted);
  const sendingNow = useRef(sending);
  const lookSoon = useRef<() => void>(() => {});
  useEffect(() => {
    acceptedNow.current = accepted;
  }, [accepted]);
  useEffect(() => {
    const wasSending = sendingNow.current;
    sendingNow.current = sending;
    // The queue just finished: the lab's previews of its last photos are worth a look now.
    if (wasSending && !sending) lookSoon.current();
  }, [sending]);
  useEffect(() => {
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | null = null;
    let processing = true;
    let readAt = -1;
    let quietLooks = 0;
    let wait = LAB_PHOTOS_EVERY_MS;
    let reading = false;
    const schedule = (ms: number) => {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => void look(), ms);
    };
    const look = async () => {
      timer = null;
      const arrived = acceptedNow.current !== readAt;
      if (processing || arrived) {
        readAt = acceptedNow.current;
        reading = true;
        try {
          processing = await refreshOrderPhotos(owner, guid, ctrl.signal);
        } catch {
          // Offline or refused: the photos this device knows are shown; the next look tries again.
        } finally {
          reading = false;
        }
      }
      if (ctrl.signal.aborted) return;
      quietLooks = arrived ? 0 : quietLooks + 1;
      wait = quietLooks < LAB_PHOTOS_SOON_READS ? LAB_PHOTOS_EVERY_MS : Math.min(wait * 2, LAB_PHOTOS_MAX_MS);
      schedule(sendingNow.current ? LAB_PHOTOS_MAX_MS : wait);
    };
    lookSoon.current = () => {
      if (ctrl.signal.aborted || reading) return;
      quietLooks = 0;
      wait = LAB_PHOTOS_EVERY_MS;
      schedule(0);
    };
    void look();
    return () => {
      ctrl.abort();
      lookSoon.current = () => {};
      if (timer !== null) clearTimeout(timer);
    };
  }, [owner, guid]);
}

const sameFields = <T>(keys: readonly (keyof T)[]) => (a: T, b: T) => keys.every((k) => a[k] === b[k]);
const sameList =
  <T>(same: (a: T, b: T) => boolean) =>
  (a: readonly T[], b: readonly T[]) =>
    a.length === b.length && a.every((x, i) => same(x, b[i] as T));
/** What the screen shows of each: the rows and tiles compare the same fields before re-rendering. */
const sameCounts = sameFields<OrderUploadCounts>(['accepted', 'pending', 'active', 'processing', 'failed', 'paused', 'rejected']);
const sameQueue = sameList(sameFields<UploadEntry>(['id', 'name', 'size', 'state', 'paused', 'error']));
const sameRejections = sameList(sameFields<RejectionEntry>(['id', 'name', 'reason']));
const samePhotos = sameList<PhotoEntry>((a, b) => a.id === b.id && a.name === b.name && a.smallestPhotoUrl === b.smallestPhotoUrl && !a.thumbnail === !b.thumbnail && a.unreadableReason === b.unreadableReason);

/** Everything the upload screen shows of one order, live from IndexedDB. */
export function useOrderUpload(owner: string, guid: string, photoLimit: number, queueLimit: number) {
  const dbName = labDb.name;
  const counts = usePacedQuery(() => orderUploadCounts(owner, guid), [owner, guid], NO_COUNTS, sameCounts, { dbName, tables: ['uploads', 'photos', 'rejections'] });
  const queue = usePacedQuery(() => orderQueue(owner, guid, queueLimit), [owner, guid, queueLimit], [], sameQueue, { dbName, tables: ['uploads'] });
  const photos = usePacedQuery(() => orderPhotos(owner, guid, photoLimit), [owner, guid, photoLimit], [], samePhotos, { dbName, tables: ['photos'] });
  const rejections = usePacedQuery(() => orderRejections(owner, guid), [owner, guid], [], sameRejections, { dbName, tables: ['rejections'] });
  // Photos waiting from an earlier visit go as soon as the screen opens (the shell does it too).
  const waiting = counts.active > 0;
  useEffect(() => {
    if (waiting && owner) startUploadQueue(owner);
  }, [waiting, owner]);
  return { counts, queue, photos, rejections };
}
