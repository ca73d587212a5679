/**
 * Whether this device can keep a batch of photos until they are uploaded, asked BEFORE anything
 * is saved: a batch is taken whole or refused with the reason, never cut off half-way.
 */
import { formatBytes } from './upload-speed.ts';

/** The storage manager's calls used here; a worker's has no persist(), which only a page can ask for. */
export interface StorageLike {
  estimate(): Promise<StorageEstimate>;
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
}

/** Room for each photo's thumbnail (a 400 px JPEG, tens of KB) and its rows, generously. */
const PER_FILE_OVERHEAD_BYTES = 64 * 1024;
/** Keep 5% of the quota free: the browser evicts or refuses writes near the limit. */
const QUOTA_HEADROOM = 0.05;

export type RoomCheck = { ok: true; fullMessage: string } | { ok: false; message: string };

const noRoom = (count: number, needed: number, free: number | null) =>
  `There is not enough space on this device to keep ${count === 1 ? 'this photo' : `these ${count} photos`} (${formatBytes(needed)}) until ${count === 1 ? 'it is' : 'they are'} uploaded` +
  `${free === null ? '' : `: ${formatBytes(Math.max(0, free))} free`}. Nothing was added. Free some space or choose fewer photos.`;

const browserStorage = (): StorageLike | undefined => (typeof navigator !== 'undefined' ? navigator.storage : undefined);

export async function checkRoom(bytes: number, count: number, storage: StorageLike | undefined = browserStorage()): Promise<RoomCheck> {
  const needed = bytes + count * PER_FILE_OVERHEAD_BYTES;
  const fullMessage = noRoom(count, needed, null);
  if (!storage || count === 0) return { ok: true, fullMessage };
  await askToPersist(storage);
  let estimate: StorageEstimate;
  try {
    estimate = await storage.estimate();
  } catch {
    // No estimate (an old browser): the write itself is atomic and its failure says the same.
    return { ok: true, fullMessage };
  }
  if (!estimate.quota) return { ok: true, fullMessage };
  const free = estimate.quota * (1 - QUOTA_HEADROOM) - (estimate.usage ?? 0);
  return needed <= free ? { ok: true, fullMessage } : { ok: false, message: noRoom(count, needed, free) };
}

let asked = false;

/**
 * Asks once that this site's storage be persistent, so the browser does not evict queued photos
 * under storage pressure. Chromium grants it silently to installed or engaged sites; others may
 * ask the user, or say no: the queue then works all the same, with eviction possible.
 */
export async function askToPersist(storage: StorageLike | undefined = browserStorage()): Promise<boolean> {
  if (!storage?.persist || asked) return false;
  asked = true;
  try {
    return (await storage.persisted?.()) || (await storage.persist());
  } catch {
    return false;
  }
}
