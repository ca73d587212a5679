import type { AnswerOf, InputOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { newId } from '../client-rules/ids.ts';
import { call } from './call.ts';

export type PriceListPaper = AnswerOf<Contract['GET /price-lists']>['data'][number];

export type PriceQuote = AnswerOf<Contract['POST /price_quote']>;

export const getPapersWithDetails = () => call('GET /papers_with_details', {});

export const getFinishingServices = (printSizeGuid: string) => call('GET /products/:print_size_guid/finishing_services', { params: { print_size_guid: printSizeGuid } });

/** The calculator's compact catalogue; src/client-rules/calculator-catalogue.ts unfolds it. */
export const getCalculatorCatalogue = () => call('GET /calculator_catalogue', {});

export const getPriceLists = () => call('GET /price-lists', {});

/** `finishing_options` are the option keys of calculator_catalogue (finishing_service_details takes detail guids). */
export const getPriceQuote = (body: InputOf<Contract['POST /price_quote']>['body']) => call('POST /price_quote', { body });

/** An admin attaches an ICC output profile to a paper (issue 35): the file's bytes in base64. */
export const attachPaperProfile = (paperGuid: string, fileName: string, base64: string) =>
  call('PUT /papers/:paper_guid/icc_profile', { params: { paper_guid: paperGuid }, body: { file_name: fileName, profile: base64 } }, { idempotencyKey: newId() });

/** An admin removes a paper's ICC profile: the catalogue then offers no proof on that paper. */
export const removePaperProfile = (paperGuid: string) => call('DELETE /papers/:paper_guid/icc_profile', { params: { paper_guid: paperGuid } }, { idempotencyKey: newId() });
