import type { CalculatorCatalogue } from '../domain/calculator-catalogue.ts';
import type { FinishingCategory, FinishingGroup, Paper } from '../domain/catalogue.ts';
import { API, routePath } from '../domain/paths.ts';
import { apiRequest } from './client.ts';

export interface PriceListPaper {
  guid: string;
  name: string;
  print_sizes: { guid: string; name: string; price: number; finishing_from: Partial<Record<FinishingCategory, number>> }[];
}

export interface PriceQuote {
  paper: string;
  print_size: string;
  finishing: string | null;
  print_price: number;
  finishing_price: number;
  quantity: number;
  subtotal: number;
}

export const getPapersWithDetails = () => apiRequest<{ data: Paper[] }>('GET', API.papersWithDetails);

export const getFinishingServices = (printSizeGuid: string) =>
  apiRequest<{ data: FinishingGroup[] }>('GET', routePath(API.finishingServices, { print_size_guid: printSizeGuid }));

/** The calculator's compact catalogue; src/domain/calculator-catalogue.ts unfolds it. */
export const getCalculatorCatalogue = () => apiRequest<CalculatorCatalogue>('GET', API.calculatorCatalogue);

export const getPriceLists = () => apiRequest<{ data: PriceListPaper[] }>('GET', API.priceLists);

/** `finishing_options` are the option keys of calculator_catalogue (finishing_service_details takes detail guids). */
export const getPriceQuote = (body: { print_size: string; finishing_service: string | null; finishing_options: string[]; quantity: number }) =>
  apiRequest<PriceQuote>('POST', API.priceQuote, { body });
