/**
 * PLACEHOLDER, replaced by builder-data's module when the branches merge (BUILDER-CONTRACT.md).
 * It has the contract's exact exported names and shapes, implemented just far enough for the
 * cart review and the cart preview to run: a Dexie database of its own (so db.ts, which
 * builder-data versions, stays untouched), a fill from retrieve_full_order, and changes written
 * locally then sent at once when online, with no outbox (a change made offline stays on this
 * device only, until the next fill replaces it).
 */
import { Dexie, type EntityTable } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { apiRequest } from '../api/client.ts';
import { useSession } from '../api/session.ts';
import { flattenLineItem, type BuilderLineItem, type ServerLineItem } from '../domain/line-items.ts';
import { toCents, type Cents } from '../domain/money.ts';
import { linePriceCents } from '../domain/pricing.ts';
import { isOnline, useConnectivity } from './connectivity.ts';

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

class PlaceholderOrderDb extends Dexie {
  orders!: EntityTable<LocalOrder, 'guid'>;
  lineItems!: EntityTable<LocalLineItem, 'guid'>;
  constructor() {
    super('print-lab-cart-placeholder');
    this.version(1).stores({ orders: 'guid, owner', lineItems: 'guid, owner, [owner+labOrderGuid]' });
  }
}

const db = new PlaceholderOrderDb();
const currentOwner = (): string => {
  const s = useSession.getState();
  return s.actingAs?.email ?? s.session?.email ?? '';
};

export function useLocalOrder(orderGuid: string): LocalOrder | null | undefined {
  return useLiveQuery(async () => {
    const order = await db.orders.get(orderGuid);
    return order && order.owner === currentOwner() ? order : null;
  }, [orderGuid]);
}

export function useLocalLineItems(orderGuid: string): LocalLineItem[] | undefined {
  return useLiveQuery(() => db.lineItems.where('[owner+labOrderGuid]').equals([currentOwner(), orderGuid]).sortBy('sortKey'), [orderGuid]);
}

interface FullOrderAnswer {
  data: {
    id: string;
    attributes: Record<string, unknown> & { guid?: string; order_name?: string; status?: string; notes?: string | null };
    line_items: ServerLineItem[];
  };
}

const dollars = (value: unknown): Cents => (typeof value === 'number' || typeof value === 'string' ? toCents(value) : 0);

export async function refreshOrder(orderGuid: string): Promise<void> {
  if (!isOnline(useConnectivity.getState())) return;
  const owner = currentOwner();
  const answer = await apiRequest<FullOrderAnswer>('GET', `/lab_orders/${encodeURIComponent(orderGuid)}/retrieve_full_order`);
  const a = answer.data.attributes;
  const order: LocalOrder = {
    guid: orderGuid,
    owner,
    name: a.order_name ?? '',
    status: a.status ?? 'open',
    subtotalCents: dollars(a.subtotal),
    discountCents: dollars(a.discount),
    creditCents: dollars(a.credit_applied),
    boutiqueCents: a.boutique_shipping ? dollars(a.boutique_shipping_price) : 0,
    shippingCents: dollars(a.shipping_total),
    totalCents: dollars(a.total),
    notes: a.notes ?? null,
  };
  const items = answer.data.line_items.map((item, i) => ({ ...flattenLineItem(item, orderGuid), owner, pending: false, refusal: null, sortKey: i }));
  await db.transaction('rw', db.orders, db.lineItems, async () => {
    await db.orders.put(order);
    await db.lineItems.where('[owner+labOrderGuid]').equals([owner, orderGuid]).delete();
    await db.lineItems.bulkPut(items);
  });
}

/** Sends one change now if online; the placeholder keeps no outbox. */
async function sendNow(method: 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<void> {
  if (!isOnline(useConnectivity.getState())) return;
  try {
    await apiRequest(method, path, body === undefined ? {} : { body });
  } catch (err) {
    // A 404 on DELETE means it is gone already; anything else is left for the next fill.
    console.error('placeholder order store: change not sent', err);
  }
}

export async function setLineItemQuantity(_orderGuid: string, lineItemGuid: string, quantity: number): Promise<void> {
  await db.transaction('rw', db.lineItems, async () => {
    const item = await db.lineItems.get(lineItemGuid);
    if (!item) return;
    const totalPriceCents = linePriceCents({ printCents: item.printPriceCents, finishingCents: item.finishingPriceCents, quantity });
    await db.lineItems.update(lineItemGuid, { quantity, totalPriceCents, pending: true });
  });
  await sendNow('PATCH', `/line_items/${encodeURIComponent(lineItemGuid)}/update_quantity`, { line_items: [{ quantity }] });
  await db.lineItems.update(lineItemGuid, { pending: false });
}

export async function deleteLineItem(_orderGuid: string, lineItemGuid: string): Promise<void> {
  await db.lineItems.delete(lineItemGuid);
  await sendNow('DELETE', `/line_items/${encodeURIComponent(lineItemGuid)}`);
}

export async function clearCart(orderGuid: string): Promise<void> {
  const guids = await db.lineItems.where('[owner+labOrderGuid]').equals([currentOwner(), orderGuid]).primaryKeys();
  await db.lineItems.bulkDelete(guids);
  for (const guid of guids) await sendNow('DELETE', `/line_items/${encodeURIComponent(guid)}`);
}

export async function dismissRefusal(lineItemGuid: string): Promise<void> {
  await db.lineItems.update(lineItemGuid, { refusal: null });
}
