import type { CalculatorGroup, FinishingCategory, FinishingGroup, FinishingService, Paper, PrintSizePricing } from '../domain/catalogue.ts';
import { API, routePath } from '../domain/paths.ts';
import { apiRequest } from './client.ts';

export interface CalculatorPrintSize extends PrintSizePricing {
  calculator_groups: Partial<Record<CalculatorGroup, FinishingService[]>>;
}
export interface CalculatorPaper extends Omit<Paper, 'print_size_pricings'> {
  print_size_pricings: CalculatorPrintSize[];
}

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

export const getCalculatorCatalogue = () => apiRequest<{ data: CalculatorPaper[] }>('GET', API.calculatorCatalogue);

export const getPriceLists = () => apiRequest<{ data: PriceListPaper[] }>('GET', API.priceLists);

export const getPriceQuote = (body: { print_size: string; finishing_service: string | null; finishing_service_details: string[]; quantity: number }) =>
  apiRequest<PriceQuote>('POST', API.priceQuote, { body });
