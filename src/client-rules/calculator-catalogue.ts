import type { CalculatorCatalogueAnswer, CalculatorServiceRef, FinishingService, Paper, PrintSizePricing } from '../contract/catalogue.ts';
import type { CalculatorGroup, DetailKind } from '../domain/catalogue.ts';

/**
 * The calculator's catalogue (GET /calculator_catalogue, src/contract/catalogue.ts). Most finishing
 * is the same from one print size and paper to the next (the same frame woods, stains and mat
 * classes), so each distinct finishing and each distinct detail choice is sent once, under a key,
 * and each print size lists its own finishing services by guid with the key of what they are.
 * The default catalogue's many services and detail choices repeat a few distinct ones, so the answer
 * is a fraction of the size it would be written out.
 */

/**
 * The answer as the page keeps it: a copy kept by an older app version may have no settings (then
 * no minimum is shown; the server still enforces it), or settings without the turnaround and the
 * holidays (then no ship dates are shown until the catalogue is read again).
 */
type Settings = CalculatorCatalogueAnswer['settings'];
export type CatalogueSettings = Pick<Settings, 'order_minimum'> & Partial<Omit<Settings, 'order_minimum'>>;
export type CalculatorCatalogue = Omit<CalculatorCatalogueAnswer, 'settings'> & { settings?: CatalogueSettings };

/** A print size as the calculator screen uses it: each group's services in full. */
export interface CalculatorPrintSize extends PrintSizePricing {
  calculator_groups: Partial<Record<CalculatorGroup, FinishingService[]>>;
}

export interface CalculatorPaper extends Omit<Paper, 'print_size_pricings'> {
  print_size_pricings: CalculatorPrintSize[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** True for an answer of this shape (an offline copy kept by an older app version is not). */
export function isCalculatorCatalogue(value: unknown): value is CalculatorCatalogue {
  return isRecord(value) && Array.isArray(value.data) && isRecord(value.finishing) && isRecord(value.options);
}

/**
 * Unfolds the wire shape into full services per print size. A detail choice's `guid` is its
 * option key: the calculator sends those keys back as the quote's `finishing_options`.
 */
export function expandCalculatorCatalogue(wire: CalculatorCatalogue): CalculatorPaper[] {
  const service = (ref: CalculatorServiceRef): FinishingService => {
    const finishing = wire.finishing[ref.finishing];
    if (!finishing) throw new RangeError(`calculator catalogue: no finishing ${ref.finishing}`);
    const detail_pricings: FinishingService['detail_pricings'] = {};
    for (const [kind, keys] of Object.entries(finishing.detail_options) as [DetailKind, string[]][]) {
      detail_pricings[kind] = keys.map((key) => {
        const option = wire.options[key];
        if (!option) throw new RangeError(`calculator catalogue: no option ${key}`);
        return { guid: key, ...option };
      });
    }
    const { detail_options: _keys, ...rest } = finishing;
    return { guid: ref.guid, ...rest, detail_pricings };
  };
  return wire.data.map((paper) => ({
    ...paper,
    print_size_pricings: paper.print_size_pricings.map((size) => {
      const calculator_groups: CalculatorPrintSize['calculator_groups'] = {};
      for (const [group, refs] of Object.entries(size.calculator_groups) as [CalculatorGroup, CalculatorServiceRef[]][]) {
        calculator_groups[group] = refs.map(service);
      }
      return { ...size, calculator_groups };
    }),
  }));
}
