import { getCalculatorCatalogue, getPriceLists } from '../api/catalogue.ts';
import { SHARED_OWNER, readThrough } from './cached-read.ts';

/** The calculator's catalogue, live or (offline) as last fetched on this device. */
export const readCalculatorCatalogue = () => readThrough(SHARED_OWNER, 'calculator_catalogue', getCalculatorCatalogue);

export const readPriceLists = () => readThrough(SHARED_OWNER, 'price_lists', getPriceLists);

/** Fetches the catalogue once when the app opens online, so the calculator works offline later. */
export function keepCatalogueForOffline(): void {
  readCalculatorCatalogue().catch(() => {
    // Offline or failing: the copy from an earlier visit stays; nothing to tell the user here.
  });
}
