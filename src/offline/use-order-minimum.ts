import { toCents, type Cents } from '../domain/money.ts';
import { useCatalogueSettings } from './use-catalogue-settings.ts';

/**
 * The lab's order minimum in cents, from its catalogue (live, or as last kept on this device): 0
 * until known and when there is none. The server enforces the minimum whatever the device knows.
 */
export function useOrderMinimumCents(): Cents {
  return toCents(useCatalogueSettings()?.order_minimum ?? 0);
}
