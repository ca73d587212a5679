/**
 * A line item as the device shows it before the lab answers: names and prices looked up in the
 * catalogue kept on the device (the calculator's copy), priced with src/domain/pricing.ts. The
 * lab prices every line itself; its answer replaces these figures (order-apply.ts).
 */
import type { CalculatorCatalogue } from '../client-rules/calculator-catalogue.ts';
import { borderLabel, isFrame, type FinishingCategory } from '../domain/catalogue.ts';
import type { LineItemPayload } from '../domain/line-item-payload.ts';
import type { BuilderLineItem } from '../client-rules/line-items.ts';
import { toCents, type Cents } from '../domain/money.ts';
import { finishingCents, linePriceCents } from '../domain/pricing.ts';

export interface LocalLookup {
  /** The calculator catalogue kept on the device, or null when none was ever fetched. */
  catalogue: CalculatorCatalogue | null;
  /** The photo's shown address (its smallest size), when the device knows it. */
  photoUrl: (photoGuid: string) => string;
}

interface Found {
  paper: string;
  paperGuid: string;
  printSize: string;
  printPriceCents: Cents;
  finishing: { name: string; category: FinishingCategory; priceCents: Cents; frameProfile: string | null; details: string[] } | null;
}

function find(catalogue: CalculatorCatalogue | null, payload: LineItemPayload): Found | null {
  if (!catalogue) return null;
  for (const paper of catalogue.data) {
    const size = paper.print_size_pricings.find((s) => s.guid === payload.print_size);
    if (!size) continue;
    let finishing: Found['finishing'] = null;
    if (payload.finishing_service) {
      const ref = Object.values(size.calculator_groups)
        .flat()
        .find((r) => r?.guid === payload.finishing_service);
      const f = ref ? catalogue.finishing[ref.finishing] : undefined;
      if (f) {
        // Detail guids the calculator knows are option keys; others price at 0 until the lab answers.
        const options = payload.finishing_service_details.map((g) => (Object.hasOwn(catalogue.options, g) ? catalogue.options[g] : undefined));
        finishing = {
          name: f.name,
          category: f.finishing_category,
          priceCents: finishingCents(toCents(f.price), options.map((o) => (o ? toCents(o.price) : 0))),
          frameProfile: f.formatted_frame_profile,
          details: options.map((o) => o?.name ?? ''),
        };
      }
    }
    return { paper: paper.name, paperGuid: paper.guid, printSize: size.name, printPriceCents: toCents(size.price), finishing };
  }
  return null;
}

/**
 * The shown line item of a payload. `previous` is the item it changes (an update): what the
 * catalogue cannot tell (an old price list, an unknown detail) is kept from it.
 */
export function localLineItem(orderGuid: string, payload: LineItemPayload, lookup: LocalLookup, previous?: BuilderLineItem): BuilderLineItem {
  const found = find(lookup.catalogue, payload);
  const f = found?.finishing ?? null;
  const sameFinishing = previous?.finishingServiceGuid === payload.finishing_service;
  const category: FinishingCategory = payload.finishing_service === null ? 'none' : (f?.category ?? (sameFinishing ? (previous?.finishingCategory ?? 'none') : 'none'));
  const printPriceCents = found?.printPriceCents ?? (previous?.printSizeGuid === payload.print_size ? previous.printPriceCents : 0);
  const finishingPriceCents = payload.finishing_service === null ? 0 : (f?.priceCents ?? (sameFinishing ? (previous?.finishingPriceCents ?? 0) : 0));
  const [one = null, two = null, three = null] = payload.finishing_service_details;
  const names = f?.details ?? [];
  const p = payload.photograph;
  const aspect = typeof p.photo_meta.aspect === 'number' ? p.photo_meta.aspect : null;
  return {
    guid: payload.guid,
    labOrderGuid: orderGuid,
    photoGuid: payload.source_photograph_guid,
    photoUrl: previous?.photoGuid === payload.source_photograph_guid ? previous.photoUrl : lookup.photoUrl(payload.source_photograph_guid),
    imageName: payload.imageName,
    externalId: previous?.externalId ?? null,
    notes: payload.notes,
    internalNotes: previous?.internalNotes ?? '',
    printSize: found?.printSize ?? previous?.printSize ?? '',
    printSizeGuid: payload.print_size,
    printBorder: borderLabel(payload.print_border),
    printBorderRaw: payload.print_border,
    paper: found?.paper ?? previous?.paper ?? '',
    paperGuid: found?.paperGuid ?? previous?.paperGuid ?? '',
    printPriceCents,
    finishingCategory: category,
    finishingService: f?.name ?? (sameFinishing ? (previous?.finishingService ?? null) : null),
    finishingServiceGuid: payload.finishing_service,
    finishingServiceDetailGuid: one,
    finishingServiceDetailTwoGuid: two,
    finishingServiceDetailThreeGuid: three,
    finishingDetailOne: names[0] || null,
    finishingDetailTwo: names[1] || null,
    finishingDetailThree: names[2] || null,
    frameProfile: f?.frameProfile ?? null,
    frameGlassName: isFrame(category) ? names[1] || null : null,
    finishingPriceCents,
    cropAttributes: { x: p.crop_x, y: p.crop_y, height: p.crop_h, width: p.crop_w, aspect },
    quantity: payload.quantity,
    totalPriceCents: linePriceCents({ printCents: printPriceCents, finishingCents: finishingPriceCents, quantity: payload.quantity }),
  };
}

/** The same item with another quantity, its total following. */
export const withQuantity = <T extends BuilderLineItem>(item: T, quantity: number): T => ({
  ...item,
  quantity,
  totalPriceCents: linePriceCents({ printCents: item.printPriceCents, finishingCents: item.finishingPriceCents, quantity }),
});
