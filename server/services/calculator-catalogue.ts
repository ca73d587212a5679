import { createHash } from 'node:crypto';
import type {
  CalculatorCatalogueAnswer,
  CalculatorFinishing,
  CalculatorServiceRef,
  CalculatorWirePaper,
  DetailPricing,
  FinishingGroup,
  FinishingService,
  Paper,
} from '../../src/contract/catalogue.ts';
import { calculatorGroups, type CalculatorGroup, type DetailKind } from '../../src/domain/catalogue.ts';

// Characters of a content key (base64url of SHA-256): 60 bits, so two different options of one
// catalogue never share a key, while a key stays short on the wire.
const KEY_LENGTH = 10;

const contentKey = (parts: unknown[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, KEY_LENGTH);

/**
 * The key of a detail choice: its content, never its guid, so that the same choice offered with
 * many services has one key. The quote finds a service's own detail by this key.
 */
export const optionKey = (kind: DetailKind, detail: Pick<DetailPricing, 'name' | 'price' | 'is_default'>): string =>
  contentKey(['option', kind, detail.name, detail.price, detail.is_default]);

/** Folds full services per print size into the calculator's compact wire shape. */
export function compactCalculatorCatalogue(
  papers: Paper[],
  groupsByPrintSize: (printSizeGuid: string) => FinishingGroup[],
): Omit<CalculatorCatalogueAnswer, 'settings'> {
  const finishing: CalculatorCatalogueAnswer['finishing'] = {};
  const options: CalculatorCatalogueAnswer['options'] = {};

  const ref = (service: FinishingService): CalculatorServiceRef => {
    const detail_options: CalculatorFinishing['detail_options'] = {};
    for (const [kind, list] of Object.entries(service.detail_pricings) as [DetailKind, DetailPricing[]][]) {
      detail_options[kind] = list.map((detail) => {
        const key = optionKey(kind, detail);
        options[key] = { name: detail.name, price: detail.price, is_default: detail.is_default };
        return key;
      });
    }
    const content: CalculatorFinishing = {
      name: service.name,
      price: service.price,
      finishing_category: service.finishing_category,
      frame_profile: service.frame_profile,
      formatted_frame_profile: service.formatted_frame_profile,
      detail_options,
    };
    const key = contentKey(['finishing', content]);
    finishing[key] = content;
    return { guid: service.guid, finishing: key };
  };

  const data: CalculatorWirePaper[] = papers.map((paper) => ({
    ...paper,
    print_size_pricings: paper.print_size_pricings.map((size) => {
      const calculator_groups: Partial<Record<CalculatorGroup, CalculatorServiceRef[]>> = {};
      for (const [group, services] of Object.entries(calculatorGroups(groupsByPrintSize(size.guid))) as [CalculatorGroup, FinishingService[]][]) {
        calculator_groups[group] = services.map(ref);
      }
      return { ...size, calculator_groups };
    }),
  }));
  return { data, finishing, options };
}
