import { getCalculatorCatalogue, getPapersWithDetails, getPriceLists } from '../api/catalogue.ts';
import { ApiError } from '../api/errors.ts';
import { isCalculatorCatalogue, type CalculatorCatalogue } from '../client-rules/calculator-catalogue.ts';
import { SHARED_OWNER, readThrough, type ReadResult } from './cached-read.ts';

// A live catalogue answer is reused for this long within one page: the signed-in shell and the
// calculator both read it when /calculate opens, and it changes only when the lab loads a new
// price list (the server's quote is the authority on any figure meanwhile).
const LIVE_REUSE_MS = 5 * 60 * 1000;

let lastRead: { at: number; read: Promise<ReadResult<CalculatorCatalogue>> } | null = null;

/**
 * The calculator's catalogue, live or (offline) as last fetched on this device; asked of the
 * server once per page load however many screens want it. The server answers a revalidation
 * with an empty 304, so a new page load costs no download while the catalogue is unchanged.
 */
export function readCalculatorCatalogue(now = Date.now()): Promise<ReadResult<CalculatorCatalogue>> {
  if (lastRead && now - lastRead.at < LIVE_REUSE_MS) return lastRead.read;
  const read = readThrough(SHARED_OWNER, 'calculator_catalogue', getCalculatorCatalogue).then((result) => {
    // A copy kept by an older version of the app has another shape: as good as no copy.
    if (!isCalculatorCatalogue(result.data)) throw new ApiError('network', 'The saved price list is out of date.');
    return result;
  });
  const entry = { at: now, read };
  lastRead = entry;
  // Only a live answer is reused: after an offline copy or a failure, the next screen asks again.
  const forget = () => {
    if (lastRead === entry) lastRead = null;
  };
  read.then((result) => result.cachedAt !== null && forget(), forget);
  return read;
}

export const readPriceLists = () => readThrough(SHARED_OWNER, 'price_lists', getPriceLists);

/** Fetches the catalogue once when the app opens online, so the calculator works offline later. */
export function keepCatalogueForOffline(): void {
  readCalculatorCatalogue().catch(() => {
    // Offline or failing: the copy from an earlier visit stays; nothing to tell the user here.
  });
}

/** The builder's papers (papers_with_details), live or as last fetched on this device. */
export const readPapers = () => readThrough(SHARED_OWNER, 'papers_with_details', getPapersWithDetails);

// The finishing services of a print size: src/offline/finishing-copy.ts (read, and kept ahead).
