/**
 * Writes the lab's answers into the device's tables without losing what is still on its way:
 * a line item with a change waiting (pending), a refusal not yet seen, or a deletion not yet
 * confirmed keeps what the user sees; only its `confirmed` copy (the lab's word) is updated.
 * Used by refreshOrder and by the drain after each sent change. Safe in the service worker.
 */
import type { FullOrder, FullOrderAttributes } from '../api/line-item-calls.ts';
import type { LabOrderListAttributes } from '../api/lab-orders.ts';
import { chunk, sameValue } from '../domain/collections.ts';
import type { ServerLineItem } from '../contract/line-items.ts';
import { flattenLineItem, type BuilderLineItem } from '../client-rules/line-items.ts';
import { toCents } from '../domain/money.ts';
import { orderTotals } from '../domain/pricing.ts';
import type { LabDatabase, LineItemRow, ListedPart, LocalOrder, OrderRow } from './db.ts';
import { listAtOf } from './order-list-store.ts';
import { isBuilderOrder, listedPart } from './order-row.ts';
import { entryLineItemGuids, readEntry } from './outbox-handlers.ts';

// Line items written per request when a whole order is applied: each bulkPut waits for IndexedDB,
// so each slice's copying into the store runs in a task of its own. In one bulkPut, the 1,000 rows
// of a cart read after its sending made one long task (IDBObjectStore put setup, traced;
// docs/performance-notes.md §6).
const APPLY_SLICE = 100;

const cents = (dollars: unknown, fallback: number): number => (typeof dollars === 'number' || typeof dollars === 'string' ? toCents(dollars) : fallback);

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The list's part of an order the list has not shown on this device (made or opened after the
 * list's last answer), from the summary fields every full order carries: the orders list is the
 * device's copy, so an order it holds is listed, offline too. Nothing without them.
 */
function listedFromFull(guid: string, a: Partial<FullOrderAttributes>): ListedPart {
  if (typeof a.id !== 'number' || typeof a.created_at !== 'string' || typeof a.updated_at !== 'string' || typeof a.photographer_id !== 'string') return {};
  const listed: LabOrderListAttributes = {
    id: a.id,
    guid,
    order_name: text(a.order_name),
    // Every full order carries its status; 'open' only if a partial answer lacked it.
    status: a.status ?? 'open',
    created_at: a.created_at,
    updated_at: a.updated_at,
    paid_at: typeof a.paid_at === 'string' ? a.paid_at : null,
    photographer_id: a.photographer_id,
    photographer_name: text(a.photographer_name),
    photographer_business: text(a.photographer_business),
    photographer_email: text(a.photographer_email),
  };
  const listAt = listAtOf(listed);
  return Number.isNaN(listAt) ? {} : { listed, listAt, listId: a.id };
}

/**
 * The order row from the lab's figures (dollars on the wire, cents here). The list's part of the
 * row stays, with the name and status the lab just gave, so the orders list agrees at once; an
 * order the list has not shown gets one.
 */
export function orderFromAttributes(owner: string, guid: string, a: Partial<FullOrderAttributes>, row?: OrderRow): LocalOrder & ListedPart {
  const previous = isBuilderOrder(row) ? row : undefined;
  const kept = row?.owner === owner ? listedPart(row) : {};
  const list = kept.listed ? kept : listedFromFull(guid, a);
  if (list.listed) list.listed = { ...list.listed, order_name: typeof a.order_name === 'string' ? a.order_name : list.listed.order_name, status: typeof a.status === 'string' ? a.status : list.listed.status };
  return {
    ...list,
    guid,
    owner,
    name: typeof a.order_name === 'string' ? a.order_name : (previous?.name ?? ''),
    status: typeof a.status === 'string' ? a.status : (previous?.status ?? 'open'),
    subtotalCents: cents(a.subtotal, previous?.subtotalCents ?? 0),
    discountCents: cents(a.discount, previous?.discountCents ?? 0),
    creditCents: cents(a.credit_applied, previous?.creditCents ?? 0),
    boutiqueCents: a.boutique_shipping === false ? 0 : cents(a.boutique_shipping_price, previous?.boutiqueCents ?? 0),
    shippingCents: cents(a.shipping_total, previous?.shippingCents ?? 0),
    dropShipCents: cents(a.drop_ship_fee, previous?.dropShipCents ?? 0),
    totalCents: cents(a.total, previous?.totalCents ?? 0),
    notes: a.notes === undefined ? (previous?.notes ?? null) : a.notes,
    ...(previous?.sentStamp === undefined ? {} : { sentStamp: previous.sentStamp }),
  };
}

/** The line items of an owner that changes in the outbox are about (they stay marked pending). */
export async function pendingLineItemGuids(db: LabDatabase, owner: string): Promise<Set<string>> {
  const guids = new Set<string>();
  for (const row of await db.outbox.where('owner').equals(owner).toArray()) {
    const entry = readEntry(row.name, row.payload);
    if (entry) for (const g of entryLineItemGuids(entry)) guids.add(g);
  }
  return guids;
}

/** Keeps what the user sees of a row still changing; otherwise shows the lab's item. */
function merged(existing: LineItemRow | undefined, owner: string, item: BuilderLineItem, sortKey: number, pending: boolean): LineItemRow {
  if (existing && (pending || existing.refusal !== null)) return { ...existing, pending, confirmed: item };
  return { ...item, orderGuid: item.labOrderGuid, owner, pending: false, refusal: null, gone: false, sortKey: existing?.sortKey ?? sortKey, deleted: 0, confirmed: item };
}

/**
 * The order's figures from the lines on the device, while changes wait: the lab's discount,
 * credit, shipping, drop-ship fee and boutique stay; subtotal and total follow the shown lines.
 */
export function retotal<T extends LocalOrder>(order: T, rows: readonly LineItemRow[]): T {
  const t = orderTotals({
    lines: rows.filter((r) => !r.deleted).map((r) => ({ printCents: r.printPriceCents, finishingCents: r.finishingPriceCents, quantity: r.quantity })),
    discountCents: order.discountCents,
    creditRequestedCents: order.creditCents,
    creditAvailableCents: order.creditCents,
    localPickup: order.shippingCents === 0,
    shippingSpeedCents: order.shippingCents,
    dropShipFeeCents: order.dropShipCents ?? 0,
    boutiquePackagingCents: order.boutiqueCents,
  });
  return { ...order, subtotalCents: t.subtotal, discountCents: t.discount, creditCents: t.credit, totalCents: t.total };
}

/**
 * Call inside a rw transaction on orders, lineItems and outbox. A whole order from the lab: rows
 * it no longer has go, unless the device still has something on the way for them.
 */
export async function applyFullOrder(db: LabDatabase, owner: string, full: FullOrder): Promise<void> {
  // The lab's `id` is its own number for the order (as in every order answer); the guid is the
  // order's name everywhere on this device.
  const guid = full.data.attributes.guid ?? full.data.id;
  const pending = await pendingLineItemGuids(db, owner);
  const rows = await db.lineItems.where('[owner+orderGuid]').equals([owner, guid]).toArray();
  const byGuid = new Map(rows.map((r) => [r.guid, r]));
  // Items new to this device go after those it has, in the lab's order.
  const base = rows.reduce((max, r) => Math.max(max, r.sortKey + 1), 0);
  const next = full.data.line_items.map((item, i) => merged(byGuid.get(item.guid), owner, flattenLineItem(item, guid), base + i, pending.has(item.guid)));
  const kept = new Set(next.map((r) => r.guid));
  const gone = rows.filter((r) => !kept.has(r.guid) && !pending.has(r.guid) && r.refusal === null).map((r) => r.guid);
  await db.lineItems.bulkDelete(gone);
  // Only the rows the lab's copy changes: a cart read again after its own changes were answered
  // is mostly what the device has, and an unchanged row written again would still wake every
  // live query of the cart and re-render its review.
  const changed = next.filter((row) => !sameValue(byGuid.get(row.guid), row));
  for (const slice of chunk(changed, APPLY_SLICE)) await db.lineItems.bulkPut(slice);
  const previous = await db.orders.get(guid);
  let order = orderFromAttributes(owner, guid, full.data.attributes, previous);
  // Changes still on their way are in the shown lines but not yet in the lab's figures.
  if (pending.size > 0) order = retotal(order, await db.lineItems.where('[owner+orderGuid]').equals([owner, guid]).toArray());
  await db.orders.put(order);
}

/** Call inside a rw transaction: line items the lab answered with, and its new order figures. */
export async function applyLineItems(
  db: LabDatabase,
  owner: string,
  orderGuid: string,
  items: readonly ServerLineItem[],
  attributes: Partial<FullOrderAttributes> | undefined,
): Promise<void> {
  const pending = await pendingLineItemGuids(db, owner);
  const existing = await db.lineItems.bulkGet(items.map((i) => i.guid));
  const base = Date.now();
  await db.lineItems.bulkPut(items.map((item, i) => merged(existing[i], owner, flattenLineItem(item, orderGuid), base + i, pending.has(item.guid))));
  const previous = await db.orders.get(orderGuid);
  if (attributes || isBuilderOrder(previous)) {
    let order = orderFromAttributes(owner, orderGuid, attributes ?? {}, previous);
    if (pending.size > 0 || !attributes) order = retotal(order, await db.lineItems.where('[owner+orderGuid]').equals([owner, orderGuid]).toArray());
    await db.orders.put(order);
  }
}

/** Call inside a rw transaction: marks rows no longer pending once nothing waits for them. */
export async function settlePending(db: LabDatabase, owner: string, guids: readonly string[]): Promise<void> {
  const pending = await pendingLineItemGuids(db, owner);
  for (const row of await db.lineItems.bulkGet([...guids])) {
    if (row && row.pending && !pending.has(row.guid)) await db.lineItems.update(row.guid, { pending: false });
  }
}
