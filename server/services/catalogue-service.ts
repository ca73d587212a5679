import { and, asc, eq, inArray } from 'drizzle-orm';
import type { CalculatorCatalogueAnswer, DetailPricing, FinishingGroup, FinishingService, Paper } from '../../src/contract/catalogue.ts';
import {
  cheapestFinishingCents,
  finishingChoiceCents,
  finishingChoiceProblem,
  formatFrameProfile,
  DETAIL_KINDS,
  type DetailKind,
  type FinishingCategory,
} from '../../src/domain/catalogue.ts';
import { groupBy } from '../../src/domain/collections.ts';
import { toDollars } from '../../src/domain/money.ts';
import { linePriceCents } from '../../src/domain/pricing.ts';
import { DEFAULT_SHIPPING_SPEED_CENTS, type ShippingSpeed } from '../../src/domain/shipping-speeds.ts';
import type { Db, Tx } from '../db/client.ts';
import { catalogues, finishingDetails, finishingServices, paperProfiles, papers, printSizes } from '../db/schema.ts';
import { notFound, validationError } from '../http/errors.ts';
import { compactCalculatorCatalogue, optionKey } from './calculator-catalogue.ts';
import { labCalendar } from './order-ship-dates.ts';
import { iccProfileAnswer } from './paper-profile-service.ts';

/**
 * The lab's catalogue as the app reads it: always the active catalogue. Catalogue reads are
 * public (the lab's price list), so they take no actor.
 */

async function activePapers(db: Db) {
  return db
    .select({ paper: papers, profile: paperProfiles })
    .from(papers)
    .innerJoin(catalogues, and(eq(catalogues.id, papers.catalogueId), eq(catalogues.active, true)))
    .leftJoin(paperProfiles, eq(paperProfiles.key, papers.iccProfileKey))
    .orderBy(asc(papers.position))
    .then((rows) => rows.map((r) => ({ ...r.paper, profile: r.profile })));
}

export async function papersWithDetails(db: Db): Promise<Paper[]> {
  const paperRows = await activePapers(db);
  if (!paperRows.length) return [];
  const sizes = await db
    .select()
    .from(printSizes)
    .where(inArray(printSizes.paperGuid, paperRows.map((p) => p.guid)))
    .orderBy(asc(printSizes.position));
  return paperRows.map((p) => ({
    guid: p.guid,
    name: p.name,
    allows_border: p.allowsBorder,
    icc_profile: p.profile ? iccProfileAnswer(p.profile) : null,
    print_size_pricings: sizes
      .filter((s) => s.paperGuid === p.guid)
      .map((s) => ({ guid: s.guid, name: s.name, price: toDollars(s.priceCents), x_aspect: s.xAspect, y_aspect: s.yAspect })),
  }));
}

/** The finishing services of some print sizes, with their details, grouped by print size. */
export async function servicesFor(db: Db, printSizeGuids: string[]): Promise<Map<string, FinishingService[]>> {
  const byPrintSize = new Map<string, FinishingService[]>();
  if (!printSizeGuids.length) return byPrintSize;
  const services = await db
    .select()
    .from(finishingServices)
    .where(inArray(finishingServices.printSizeGuid, printSizeGuids))
    .orderBy(asc(finishingServices.position));
  const details = services.length
    ? await db
        .select()
        .from(finishingDetails)
        .where(inArray(finishingDetails.finishingServiceGuid, services.map((s) => s.guid)))
        .orderBy(asc(finishingDetails.position))
    : [];
  const detailsByService = groupBy(details, (d) => d.finishingServiceGuid);
  for (const s of services) {
    const byKind = groupBy(detailsByService.get(s.guid) ?? [], (d) => d.kind as DetailKind);
    const detail_pricings: FinishingService['detail_pricings'] = {};
    // Keys in the order the choices are made: mount colour, frame mat, glass, stain.
    for (const kind of DETAIL_KINDS) {
      const list = byKind.get(kind);
      if (list) detail_pricings[kind] = list.map((d) => ({ guid: d.guid, name: d.name, price: toDollars(d.priceCents), is_default: d.isDefault }));
    }
    const list = byPrintSize.get(s.printSizeGuid) ?? [];
    list.push({
      guid: s.guid,
      name: s.name,
      price: toDollars(s.priceCents),
      finishing_category: s.category as FinishingCategory,
      frame_profile: s.frameProfile,
      formatted_frame_profile: formatFrameProfile(s.frameProfile),
      detail_pricings,
    });
    byPrintSize.set(s.printSizeGuid, list);
  }
  return byPrintSize;
}

const groupByCategory = (services: FinishingService[]): FinishingGroup[] =>
  [...groupBy(services, (s) => s.finishing_category)].map(([finishing_category, list]) => ({ finishing_category, services: list }));

/** A print size of the active catalogue, or 404. */
async function activePrintSize(db: Db, guid: string) {
  const [row] = await db
    .select({ size: printSizes, paper: papers })
    .from(printSizes)
    .innerJoin(papers, eq(papers.guid, printSizes.paperGuid))
    .innerJoin(catalogues, and(eq(catalogues.id, papers.catalogueId), eq(catalogues.active, true)))
    .where(eq(printSizes.guid, guid));
  if (!row) throw notFound('This print size is not offered.');
  return row;
}

export async function finishingServicesFor(db: Db, printSizeGuid: string): Promise<FinishingGroup[]> {
  await activePrintSize(db, printSizeGuid);
  return groupByCategory((await servicesFor(db, [printSizeGuid])).get(printSizeGuid) ?? []);
}

/**
 * Every paper and print size with its finishing in the calculator's groups, in one answer, each
 * distinct finishing and detail choice sent once (src/client-rules/calculator-catalogue.ts).
 */
export async function calculatorCatalogue(db: Db): Promise<CalculatorCatalogueAnswer> {
  const list = await papersWithDetails(db);
  const services = await servicesFor(db, list.flatMap((p) => p.print_size_pricings.map((s) => s.guid)));
  const shipping = await catalogueShipping(db);
  const calendar = await labCalendar(db);
  const settings = {
    order_minimum: toDollars(await orderMinimumCents(db)),
    turnaround: calendar.turnaround,
    holidays: [...calendar.holidays],
    shipping_speeds: { standard: toDollars(shipping.speedCents.standard), two_day: toDollars(shipping.speedCents.two_day), overnight: toDollars(shipping.speedCents.overnight) },
    drop_ship_fee: toDollars(shipping.dropShipFeeCents),
  };
  return { ...compactCalculatorCatalogue(list, (guid) => groupByCategory(services.get(guid) ?? [])), settings };
}

/** The active catalogue's order minimum in cents; 0 (none) before any catalogue is loaded. */
export async function orderMinimumCents(db: Db | Tx): Promise<number> {
  const [row] = await db.select({ cents: catalogues.orderMinimumCents }).from(catalogues).where(eq(catalogues.active, true)).limit(1);
  return row?.cents ?? 0;
}

/**
 * The active catalogue's shipping prices in cents: each speed's, and the drop-ship fee. Before any
 * catalogue is loaded, the default speeds and no fee.
 */
export async function catalogueShipping(db: Db | Tx): Promise<{ speedCents: Record<ShippingSpeed, number>; dropShipFeeCents: number }> {
  const [row] = await db
    .select({ speeds: catalogues.shippingSpeedCents, fee: catalogues.dropShipFeeCents })
    .from(catalogues)
    .where(eq(catalogues.active, true))
    .limit(1);
  return { speedCents: { ...DEFAULT_SHIPPING_SPEED_CENTS, ...row?.speeds }, dropShipFeeCents: row?.fee ?? 0 };
}

export interface QuoteInput {
  print_size: string;
  finishing_service?: string | null | undefined;
  /** Detail guids, as finishing_services lists them. */
  finishing_service_details?: string[] | undefined;
  /** Detail option keys, as calculator_catalogue lists them. */
  finishing_options?: string[] | undefined;
  quantity: number;
}

/** A service's own detail chosen by guid or by option key, with its kind; undefined when it has none such. */
function findDetail(service: FinishingService, pick: (kind: DetailKind, detail: DetailPricing) => boolean) {
  for (const [kind, list] of Object.entries(service.detail_pricings) as [DetailKind, DetailPricing[]][]) {
    const detail = list.find((d) => pick(kind, d));
    if (detail) return { kind, detail };
  }
  return undefined;
}

/** The server's figure for one print with its finishing: the same rule the app uses. */
export async function priceQuote(db: Db, input: QuoteInput) {
  const { size, paper } = await activePrintSize(db, input.print_size);
  let finishingCents = 0;
  let service: FinishingService | undefined;
  if (input.finishing_service) {
    service = (await servicesFor(db, [size.guid])).get(size.guid)?.find((s) => s.guid === input.finishing_service);
    if (!service) throw validationError(`That finishing is not offered for ${paper.name} ${size.name}.`);
    const chosen = service;
    const details: Partial<Record<DetailKind, string>> = {};
    const picks = [
      ...(input.finishing_service_details ?? []).map((guid) => findDetail(chosen, (_kind, d) => d.guid === guid)),
      ...(input.finishing_options ?? []).map((key) => findDetail(chosen, (kind, d) => optionKey(kind, d) === key)),
    ];
    for (const pick of picks) {
      if (!pick) throw validationError(`That finishing detail is not offered with ${chosen.name}.`);
      details[pick.kind] = pick.detail.guid;
    }
    const problem = finishingChoiceProblem({ service, details });
    if (problem) throw validationError(problem);
    finishingCents = finishingChoiceCents({ service, details });
  }
  const subtotal = linePriceCents({ printCents: size.priceCents, finishingCents, quantity: input.quantity });
  return {
    paper: paper.name,
    print_size: size.name,
    finishing: service?.name ?? null,
    print_price: toDollars(size.priceCents),
    finishing_price: toDollars(finishingCents),
    quantity: input.quantity,
    subtotal: toDollars(subtotal),
  };
}

/** The price list by paper: each print size with its price and the least each finishing costs. */
export async function priceList(db: Db) {
  const list = await papersWithDetails(db);
  const services = await servicesFor(db, list.flatMap((p) => p.print_size_pricings.map((s) => s.guid)));
  return list.map((p) => ({
    guid: p.guid,
    name: p.name,
    print_sizes: p.print_size_pricings.map((s) => {
      const fromCents: Partial<Record<FinishingCategory, number>> = {};
      for (const service of services.get(s.guid) ?? []) {
        const cents = cheapestFinishingCents(service);
        fromCents[service.finishing_category] = Math.min(cents, fromCents[service.finishing_category] ?? cents);
      }
      const finishing_from = Object.fromEntries(Object.entries(fromCents).map(([category, cents]) => [category, toDollars(cents)]));
      return { guid: s.guid, name: s.name, price: s.price, finishing_from };
    }),
  }));
}
