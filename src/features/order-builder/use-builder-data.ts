import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import { errorText } from '../../api/errors.ts';
import type { FinishingGroup, Paper } from '../../contract/catalogue.ts';
import { sortPhotosByNumber } from '../../client-rules/photo-order.ts';
import { readPapers } from '../../offline/catalogue-copy.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { keepFinishingForOffline, readFinishingGroups } from '../../offline/finishing-copy.ts';
import { labDb, type PhotoEntry } from '../../offline/db.ts';
import { refreshOrderPhotos } from '../../upload/page/order-photos.ts';
import { refreshOrder } from '../../offline/order-store.ts';

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'failed'; message: string };

/** The papers and their print sizes, live or (offline) as last fetched on this device. */
export function usePapers(): Loaded<Paper[]> {
  const [papers, setPapers] = useState<Loaded<Paper[]>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    readPapers().then(
      ({ data }) => live && setPapers({ state: 'ready', data: data.data }),
      (err: unknown) => live && setPapers({ state: 'failed', message: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return papers;
}

/**
 * The finishing services offered at a print size; null while they load (or for no size), [] when
 * they cannot be had (offline, never fetched here): the builder then offers NONE only.
 */
export function useFinishingGroups(printSizeGuid: string | null): FinishingGroup[] | null {
  const [groups, setGroups] = useState<{ guid: string; groups: FinishingGroup[] } | null>(null);
  useEffect(() => {
    if (!printSizeGuid) return undefined;
    let live = true;
    readFinishingGroups(printSizeGuid).then(
      ({ data }) => live && setGroups({ guid: printSizeGuid, groups: data.data }),
      () => live && setGroups({ guid: printSizeGuid, groups: [] }),
    );
    return () => {
      live = false;
    };
  }, [printSizeGuid]);
  return printSizeGuid && groups?.guid === printSizeGuid ? groups.groups : null;
}

/**
 * The finishing of every print size of the papers shown, kept on the device in the background
 * (src/offline/finishing-copy.ts) whenever the builder is open online: when it opens, and again
 * when the connection returns. The sizes of the paper just chosen go first. On the train, every
 * size then offers its mats and frames, not only the sizes chosen before.
 */
export function useKeepFinishingForOffline(papers: readonly Paper[], chosen: Paper | null): void {
  const online = useConnectivity(isOnline);
  useEffect(() => {
    if (online && papers.length > 0) void keepFinishingForOffline(papers.flatMap((p) => p.print_size_pricings.map((z) => z.guid)));
  }, [papers, online]);
  useEffect(() => {
    if (online && chosen) void keepFinishingForOffline(chosen.print_size_pricings.map((z) => z.guid), true);
  }, [chosen, online]);
}

/**
 * The order's photos from the device, in the order of the numbers in their names (docs/orders.md §5),
 * and the order and its photos refreshed from the lab when online. Rows carry Blob handles, not
 * bytes, so reading 1,000 of them is cheap; only mounted tiles turn them into images.
 */
export function useOrderPhotos(owner: string, orderGuid: string): PhotoEntry[] | undefined {
  useEffect(() => {
    const ctrl = new AbortController();
    void refreshOrder(orderGuid);
    refreshOrderPhotos(owner, orderGuid, ctrl.signal).catch(() => {
      // Offline or refused: the photos this device knows are shown.
    });
    return () => ctrl.abort();
  }, [owner, orderGuid]);
  const rows = useLiveQuery(() => labDb.photos.where('[owner+orderGuid]').equals([owner, orderGuid]).toArray(), [owner, orderGuid]);
  return useMemo(() => (rows ? sortPhotosByNumber(rows.map((r) => ({ ...r, photo_file_name: r.name }))) : undefined), [rows]);
}
