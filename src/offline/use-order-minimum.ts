import { useEffect, useState } from 'react';
import { toCents, type Cents } from '../domain/money.ts';
import { readCalculatorCatalogue } from './catalogue-copy.ts';

/**
 * The lab's order minimum in cents, from its catalogue (live, or as last kept on this device): 0
 * until known and when there is none. The server enforces the minimum whatever the device knows.
 */
export function useOrderMinimumCents(): Cents {
  const [cents, setCents] = useState<Cents>(0);
  useEffect(() => {
    let live = true;
    readCalculatorCatalogue().then(
      (result) => live && setCents(toCents(result.data.settings?.order_minimum ?? 0)),
      (err: unknown) => console.error('the order minimum could not be read', err),
    );
    return () => {
      live = false;
    };
  }, []);
  return cents;
}
