import { and, eq, inArray } from 'drizzle-orm';
import { BRUSHED_CANVAS_NEEDS_FINISHING } from '../../src/domain/add-to-cart.ts';
import { BRUSHED_CANVAS } from '../../src/domain/builder-gating.ts';
import type { FinishingService } from '../../src/contract/catalogue.ts';
import { allowedDetails, finishingChoiceCents, finishingChoiceProblem, type DetailKind, type FinishingChoice } from '../../src/domain/catalogue.ts';
import type { Cents } from '../../src/domain/money.ts';
import type { Db } from '../db/client.ts';
import { catalogues, papers, printSizes } from '../db/schema.ts';
import { HttpError, validationError } from '../http/errors.ts';
import { servicesFor } from './catalogue-service.ts';

/**
 * The product a line item names, found in the lab's ACTIVE catalogue and priced there: the prices
 * a client sends are never read (docs/lab-rules.md §3). A product the lab no longer offers is refused as
 * ProductUnavailable, so the client can tell the photographer to choose again.
 */

export const PRODUCT_UNAVAILABLE = 'This product is no longer offered. Please choose the paper, print size and finishing again.';

export const productUnavailable = (detail: string) => new HttpError(422, 'ProductUnavailable', PRODUCT_UNAVAILABLE, { developerMessage: detail, moreInfo: [detail] });

export interface ProductChoice {
  printSizeGuid: string;
  finishingServiceGuid: string | null;
  /** Every chosen detail guid (any order; stored in the category's order). */
  detailGuids: string[];
  printBorder: string;
}

export interface PricedProduct {
  printSizeGuid: string;
  finishingServiceGuid: string | null;
  /** In the category's order (catalogue.ts allowedDetails). */
  detailGuids: string[];
  printCents: Cents;
  finishingCents: Cents;
}

type SizeRow = { size: typeof printSizes.$inferSelect; paper: typeof papers.$inferSelect };

/** Prices the products of a batch, reading each print size and its finishing once. */
export class ProductPricer {
  private sizes = new Map<string, SizeRow | null>();
  private services = new Map<string, FinishingService[]>();

  constructor(private readonly db: Db) {}

  /** Loads every print size the batch names in two queries, before any is priced. */
  async load(printSizeGuids: string[]): Promise<void> {
    const wanted = [...new Set(printSizeGuids)].filter((g) => !this.sizes.has(g));
    if (!wanted.length) return;
    const rows = await this.db
      .select({ size: printSizes, paper: papers })
      .from(printSizes)
      .innerJoin(papers, eq(papers.guid, printSizes.paperGuid))
      .innerJoin(catalogues, and(eq(catalogues.id, papers.catalogueId), eq(catalogues.active, true)))
      .where(inArray(printSizes.guid, wanted));
    for (const guid of wanted) this.sizes.set(guid, rows.find((r) => r.size.guid === guid) ?? null);
    const found = rows.map((r) => r.size.guid);
    const services = await servicesFor(this.db, found);
    for (const guid of found) this.services.set(guid, services.get(guid) ?? []);
  }

  async price(choice: ProductChoice): Promise<PricedProduct> {
    await this.load([choice.printSizeGuid]);
    const row = this.sizes.get(choice.printSizeGuid);
    if (!row) throw productUnavailable(`print size ${choice.printSizeGuid} is not in the active catalogue`);
    const { size, paper } = row;
    if (choice.printBorder !== 'none' && !paper.allowsBorder) throw validationError(`${paper.name} is printed without a border.`);
    if (!choice.finishingServiceGuid) {
      if (choice.detailGuids.length) throw validationError('Finishing details need a finishing service.');
      if (paper.name === BRUSHED_CANVAS) throw validationError(BRUSHED_CANVAS_NEEDS_FINISHING);
      return { printSizeGuid: size.guid, finishingServiceGuid: null, detailGuids: [], printCents: size.priceCents, finishingCents: 0 };
    }
    const service = this.services.get(size.guid)?.find((s) => s.guid === choice.finishingServiceGuid);
    if (!service) throw productUnavailable(`finishing service ${choice.finishingServiceGuid} is not offered for ${paper.name} ${size.name}`);
    const details: FinishingChoice['details'] = {};
    for (const guid of choice.detailGuids) {
      const kind = kindOf(service, guid);
      if (!kind) throw productUnavailable(`finishing detail ${guid} is not offered with ${service.name}`);
      if (details[kind] && details[kind] !== guid) throw validationError(`Choose one ${kind.replace('_', ' ')} only.`);
      details[kind] = guid;
    }
    const finishing = { service, details };
    const problem = finishingChoiceProblem(finishing);
    if (problem) throw validationError(problem);
    return {
      printSizeGuid: size.guid,
      finishingServiceGuid: service.guid,
      detailGuids: allowedDetails(service.finishing_category).flatMap((kind) => details[kind] ?? []),
      printCents: size.priceCents,
      finishingCents: finishingChoiceCents(finishing),
    };
  }
}

function kindOf(service: FinishingService, detailGuid: string): DetailKind | null {
  for (const [kind, list] of Object.entries(service.detail_pricings) as [DetailKind, { guid: string }[]][]) {
    if (list.some((d) => d.guid === detailGuid)) return kind;
  }
  return null;
}
