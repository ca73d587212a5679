import { getFinishingServices } from '../api/catalogue.ts';
import { ApiError } from '../api/errors.ts';
import { SHARED_OWNER, keepRead, readThrough } from './cached-read.ts';
import { isOnline, useConnectivity } from './connectivity.ts';

/**
 * The finishing services of every print size, kept on the device for the builder offline.
 *
 * The lab answers finishing per print size, so a size never chosen online would offer NONE only
 * on a train. While the builder is open online, the finishing of each size of the papers it shows
 * is read in the background, one at a time, each at an idle moment and a gap after the last, and
 * kept in the same IndexedDB copy the builder reads offline (cachedReads, `lab|finishing_services|<size>`).
 * The lab revalidates an unchanged answer with an empty 304, so a later visit costs little.
 */

// Between two background reads: the link and the lab are shared with what the photographer does
// (uploads, line items); every size of the default catalogue is still kept within a short idle spell.
const GAP_MS = 150;
// The longest an idle moment is waited for before a read goes anyway (a page never idle still
// gets its copy, slowly).
const IDLE_WAIT_MS = 2_000;

const what = (printSizeGuid: string) => `finishing_services|${printSizeGuid}`;

/** The finishing services of one print size, live or as last kept on this device. */
export async function readFinishingGroups(printSizeGuid: string) {
  const read = await readThrough(SHARED_OWNER, what(printSizeGuid), () => getFinishingServices(printSizeGuid));
  if (read.cachedAt === null) kept.add(printSizeGuid);
  return read;
}

/** Sizes whose finishing this page has kept (or the lab refused): not asked again. */
const kept = new Set<string>();
let waiting: string[] = [];
let running: Promise<void> | null = null;

const idle = () =>
  new Promise<void>((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: IDLE_WAIT_MS });
    else setTimeout(resolve, 0);
  });
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function drain(): Promise<void> {
  while (waiting.length > 0 && isOnline(useConnectivity.getState())) {
    await idle();
    const guid = waiting.shift();
    if (guid === undefined || kept.has(guid)) continue;
    try {
      await keepRead(SHARED_OWNER, what(guid), await getFinishingServices(guid));
      kept.add(guid);
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'network') {
        // The connection went: the rest waits for the next call (the builder calls again online).
        waiting.unshift(guid);
        return;
      }
      // Refused (a size withdrawn since the papers were read) or not kept (storage full): the
      // builder asks again when the size is chosen; the background does not insist.
      kept.add(guid);
      console.warn(`could not keep the finishing of print size ${guid} for offline use`, err);
    }
    await pause(GAP_MS);
  }
}

/**
 * Queues print sizes whose finishing is to be kept for offline use, and starts the background
 * reads if they are not running. `first`: these go before the ones already waiting (the sizes of
 * the paper just chosen). Resolves when the queue is empty or the connection went.
 */
export function keepFinishingForOffline(printSizeGuids: readonly string[], first = false): Promise<void> {
  const fresh = printSizeGuids.filter((g) => !kept.has(g));
  if (first) waiting = [...fresh, ...waiting.filter((g) => !fresh.includes(g))];
  else waiting = [...waiting, ...fresh.filter((g) => !waiting.includes(g))];
  running ??= drain().finally(() => {
    running = null;
  });
  return running;
}

/** Forgets what this page kept (tests start each case afresh). */
export function forgetKeptFinishing(): void {
  kept.clear();
  waiting = [];
}
