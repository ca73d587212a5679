import { toCents, type Cents } from '../domain/money.ts';
import type { ShippingSpeed } from '../domain/shipping-speeds.ts';
import { useCatalogueSettings } from './use-catalogue-settings.ts';

export interface ShippingPrices {
  speeds: Record<ShippingSpeed, Cents>;
  dropShipFee: Cents;
}

/**
 * The lab's price of each shipping speed and its drop-ship fee, from its catalogue (so they show
 * offline): null until known. What the order is charged is the lab's figure on the order.
 */
export function useShippingPrices(): ShippingPrices | null {
  const s = useCatalogueSettings();
  if (!s?.shipping_speeds) return null;
  const speeds = s.shipping_speeds;
  return { speeds: { standard: toCents(speeds.standard), two_day: toCents(speeds.two_day), overnight: toCents(speeds.overnight) }, dropShipFee: toCents(s.drop_ship_fee ?? 0) };
}
