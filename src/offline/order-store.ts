/**
 * PLACEHOLDER, replaced by builder-data (BUILDER-CONTRACT.md): the exact exported names and
 * signatures of the order store, implemented minimally over a Dexie database of its own so the
 * builder screen can run on this branch before builder-data lands. It keeps line items on this
 * device only (pending until the real store's outbox sends them) and does not price them.
 */
import { Dexie, type EntityTable } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { getLabOrder } from '../api/lab-order-upload.ts';
import { useSession } from '../api/session.ts';
import { borderLabel } from '../domain/catalogue.ts';
import { planCartAdd } from '../domain/line-item-merge.ts';
import type { LineItemPayload } from '../domain/line-item-payload.ts';
import type { BuilderLineItem } from '../domain/line-items.ts';
import type { FinishingGroup, Paper } from '../domain/catalogue.ts';
import { toCents, type Cents } from '../domain/money.ts';
import { SHARED_OWNER } from './cached-read.ts';
import { labDb } from './db.ts';

export interface LocalLineItem extends BuilderLineItem {
  owner: string;
  pending: boolean;
  refusal: string | null;
  sortKey: number;
}
export interface LocalOrder {
  guid: string;
  owner: string;
  name: string;
  status: string;
  subtotalCents: Cents;
  discountCents: Cents;
  creditCents: Cents;
  boutiqueCents: Cents;
  shippingCents: Cents;
  totalCents: Cents;
  notes: string | null;
}

class PlaceholderDb extends Dexie {
  orders!: EntityTable<LocalOrder, 'guid'>;
  lineItems!: EntityTable<LocalLineItem & { orderGuid: string }, 'guid'>;
  constructor() {
    super('print-lab-order-store-placeholder');
    this.version(1).stores({ orders: 'guid, owner', lineItems: 'guid, owner, [owner+orderGuid]' });
  }
}
const db = new PlaceholderDb();
const owner = (): string => {
  const s = useSession.getState();
  return s.actingAs?.email ?? s.session?.email ?? '';
};

export function useLocalOrder(orderGuid: string): LocalOrder | null | undefined {
  const me = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  return useLiveQuery(async () => {
    const row = await db.orders.get(orderGuid);
    return row && row.owner === me ? row : null;
  }, [orderGuid, me]);
}

export function useLocalLineItems(orderGuid: string): LocalLineItem[] | undefined {
  const me = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  return useLiveQuery(() => db.lineItems.where('[owner+orderGuid]').equals([me, orderGuid]).sortBy('sortKey'), [orderGuid, me]);
}

export function usePendingChanges(): number {
  return useLiveQuery(() => db.lineItems.filter((l) => l.pending).count(), [], 0);
}

export async function refreshOrder(orderGuid: string): Promise<void> {
  try {
    const { attributes } = (await getLabOrder(orderGuid)).data;
    const me = owner();
    const before = await db.orders.get(orderGuid);
    await db.orders.put({
      guid: orderGuid,
      owner: me,
      name: attributes.order_name,
      status: attributes.status,
      subtotalCents: before?.subtotalCents ?? 0,
      discountCents: 0,
      creditCents: 0,
      boutiqueCents: 0,
      shippingCents: 0,
      totalCents: before?.totalCents ?? 0,
      notes: null,
    });
  } catch {
    // Offline or refused: what this device holds stays.
  }
}

const aspectOf = (p: LineItemPayload): number | null => {
  const aspect = p.photograph.photo_meta.aspect;
  return typeof aspect === 'number' ? aspect : null;
};

function fromPayload(orderGuid: string, p: LineItemPayload, sortKey: number): LocalLineItem & { orderGuid: string } {
  const [one = null, two = null, three = null] = p.finishing_service_details;
  return {
    orderGuid,
    owner: owner(),
    pending: true,
    refusal: null,
    sortKey,
    guid: p.guid,
    labOrderGuid: orderGuid,
    photoGuid: p.source_photograph_guid,
    photoUrl: '',
    imageName: p.imageName,
    externalId: null,
    notes: p.notes,
    internalNotes: '',
    printSize: '',
    printSizeGuid: p.print_size,
    printBorder: borderLabel(p.print_border),
    printBorderRaw: p.print_border,
    paper: '',
    paperGuid: '',
    printPriceCents: 0,
    finishingCategory: 'none',
    finishingService: null,
    finishingServiceGuid: p.finishing_service,
    finishingServiceDetailGuid: one,
    finishingServiceDetailTwoGuid: two,
    finishingServiceDetailThreeGuid: three,
    finishingDetailOne: null,
    finishingDetailTwo: null,
    finishingDetailThree: null,
    frameProfile: null,
    frameGlassName: null,
    finishingPriceCents: 0,
    cropAttributes: { x: p.photograph.crop_x, y: p.photograph.crop_y, width: p.photograph.crop_w, height: p.photograph.crop_h, aspect: aspectOf(p) },
    quantity: p.quantity,
    totalPriceCents: 0,
  };
}

/** Names and prices from the catalogue this device keeps (the real store prices with pricing.ts). */
async function describe(item: LocalLineItem): Promise<LocalLineItem> {
  const kept = async <T>(what: string) => (await labDb.cachedReads.get(`${SHARED_OWNER}|${what}`))?.payload as T | undefined;
  const papers = (await kept<{ data: Paper[] }>('papers_with_details'))?.data ?? [];
  const paper = papers.find((x) => x.print_size_pricings.some((z) => z.guid === item.printSizeGuid));
  const size = paper?.print_size_pricings.find((z) => z.guid === item.printSizeGuid);
  const groups = (await kept<{ data: FinishingGroup[] }>(`finishing_services|${item.printSizeGuid}`))?.data ?? [];
  const service = groups.flatMap((g) => g.services).find((v) => v.guid === item.finishingServiceGuid);
  const printPriceCents = size ? toCents(size.price) : 0;
  const finishingPriceCents = service ? toCents(service.price) : 0;
  return {
    ...item,
    paper: paper?.name ?? '',
    paperGuid: paper?.guid ?? '',
    printSize: size?.name ?? '',
    printPriceCents,
    finishingCategory: service?.finishing_category ?? 'none',
    finishingService: service?.name ?? null,
    finishingPriceCents,
    totalPriceCents: (printPriceCents + finishingPriceCents) * item.quantity,
  };
}

export async function addLineItems(orderGuid: string, payloads: LineItemPayload[]): Promise<void> {
  const me = owner();
  // No single transaction here (a placeholder): the catalogue lookups read another database.
  const cart = await db.lineItems.where('[owner+orderGuid]').equals([me, orderGuid]).toArray();
  const plan = planCartAdd(
    cart.map((l) => ({ guid: l.guid, quantity: l.quantity, photoGuid: l.photoGuid, printSizeGuid: l.printSizeGuid, finishingServiceGuid: l.finishingServiceGuid })),
    payloads,
  );
  const start = Date.now();
  const rows = await Promise.all(plan.post.map(async (p, i) => ({ ...(await describe(fromPayload(orderGuid, p, start + i))), orderGuid })));
  for (const u of plan.quantityUpdates) await db.lineItems.update(u.guid, { quantity: u.quantity, pending: true });
  await db.lineItems.bulkPut(rows);
}

export async function updateLineItem(orderGuid: string, payload: LineItemPayload): Promise<void> {
  const before = await db.lineItems.get(payload.guid);
  await db.lineItems.put({ ...(await describe(fromPayload(orderGuid, payload, before?.sortKey ?? Date.now()))), orderGuid });
}

export async function setLineItemQuantity(_orderGuid: string, lineItemGuid: string, quantity: number): Promise<void> {
  await db.lineItems.update(lineItemGuid, { quantity, pending: true });
}

export async function deleteLineItem(_orderGuid: string, lineItemGuid: string): Promise<void> {
  await db.lineItems.delete(lineItemGuid);
}

export async function clearCart(orderGuid: string): Promise<void> {
  await db.lineItems.where('[owner+orderGuid]').equals([owner(), orderGuid]).delete();
}

export async function dismissRefusal(lineItemGuid: string): Promise<void> {
  await db.lineItems.update(lineItemGuid, { refusal: null });
}
