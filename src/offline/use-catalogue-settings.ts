import { useEffect, useState } from 'react';
import type { CatalogueSettings } from '../client-rules/calculator-catalogue.ts';
import { readCalculatorCatalogue } from './catalogue-copy.ts';

/**
 * The lab's settings that ride with its catalogue (order minimum, shipping prices), live or as last
 * kept on this device, so they show offline: null until read. The server enforces and prices
 * whatever the device knows.
 */
export function useCatalogueSettings(): CatalogueSettings | null {
  const [settings, setSettings] = useState<CatalogueSettings | null>(null);
  useEffect(() => {
    let live = true;
    readCalculatorCatalogue().then(
      (result) => live && setSettings(result.data.settings ?? null),
      (err: unknown) => console.error("the lab's catalogue settings could not be read", err),
    );
    return () => {
      live = false;
    };
  }, []);
  return settings;
}
