import { and, eq, sql } from 'drizzle-orm';
import { toCents } from '../../src/domain/money.ts';
import { BLIND_SLIP_NEEDS_BUSINESS_NAME, BLIND_SLIP_NOT_ALLOWED, blindSlipAllowed } from '../../src/domain/packing-slip.ts';
import { SHIPPING_SPEEDS, isShippingSpeed } from '../../src/domain/shipping-speeds.ts';
import type { Tx } from '../db/client.ts';
import { addresses, cards, labOrders, orderClientAddresses, users, type ShippingAddressSnapshot } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { INVALID_DISCOUNT_CODE, discountCodeRefusal, usableDiscountCode } from './discount-service.ts';
import { fullOrderAnswer } from './line-item-answer.ts';
import { visibleOrder, type OrderRow } from './order-access.ts';
import { refreshFigures } from './order-figures.ts';
import { lockOpenOrder } from './order-lock.ts';
import { ADMIN_CHANGE_TYPES, adminChangeOrder, changeColorCorrection, isAdminChange } from './admin-order-changes.ts';
import { ORDER_CHANGE_TYPES } from '../../src/contract/orders.ts';

/** PATCH /lab_orders/{id} {type, value}: the choices of the checkout screens (docs/api.md §8). */

export const NOT_OPEN_TO_CHECKOUT = 'Order needs to be in open status to checkout!';
export const NOT_ENOUGH_CREDIT = 'You do not have this much credit available.';
export const BOUTIQUE_NOTE_RULE = 'The boutique packaging note is 1 to 300 characters.';
export const CARD_NOT_FOUND = 'This card does not exist.';
export const ADDRESS_NOT_FOUND = 'This address does not exist.';
export const SHIPPING_METHOD_RULE = `shipping_method takes ${SHIPPING_SPEEDS.join(', ')}.`;
const CREDIT_RULE = 'Enter the credit as an amount in dollars, such as 12.50.';
// docs/orders.md §5, §9: the boutique packaging note.
export const BOUTIQUE_NOTE_MAX = 300;

export const notOpenToCheckout = () => validationError(NOT_OPEN_TO_CHECKOUT);

type ChangeType = (typeof ORDER_CHANGE_TYPES)[number];

export interface OrderChange {
  type: string;
  value?: unknown;
  /** Why an unpaid order may go to printing, framing or shipped (admin status changes). */
  reason?: string | undefined;
  boutique_shipping_note?: string | undefined;
}

type OrderSet = Partial<typeof labOrders.$inferInsert>;

/** Dollars with at most 2 decimals, as a number or numeric text, to cents; null when not that. */
function creditCents(value: unknown): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) return null;
  return toCents(text);
}

/** true / false, also as the words a form may send. */
function flag(value: unknown): boolean | null {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return null;
}

const idOrEmpty = (value: unknown, message: string): string => {
  if (typeof value !== 'string') throw validationError(message);
  return value.trim();
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What one change sets on the order; checked against the order's photographer's own things. */
async function changeValues(tx: Tx, deps: Pick<ServerDeps, 'now'>, order: OrderRow, type: ChangeType, change: OrderChange): Promise<OrderSet> {
  const value = change.value;
  const ownerGuid = order.userGuid;
  switch (type) {
    case 'discount_code': {
      if (typeof value !== 'string') throw validationError(INVALID_DISCOUNT_CODE);
      if (!value.trim()) return { discountCodeId: null };
      const now = deps.now?.() ?? new Date();
      const code = await usableDiscountCode(tx, value, now);
      if (!code) throw validationError(await discountCodeRefusal(tx, { typed: value }, now));
      return { discountCodeId: code.id };
    }
    case 'credit': {
      const cents = creditCents(value);
      if (cents === null) throw validationError(CREDIT_RULE);
      const [owner] = await tx.select({ credit: users.creditAvailableCents }).from(users).where(eq(users.guid, ownerGuid));
      if (cents > (owner?.credit ?? 0)) throw validationError(NOT_ENOUGH_CREDIT);
      return { creditRequestedCents: cents };
    }
    case 'used_saved_card': {
      const id = idOrEmpty(value, CARD_NOT_FOUND);
      if (!id) return { selectedCardId: null, usedSavedCard: false };
      const [card] = UUID.test(id) ? await tx.select({ id: cards.id, kept: cards.kept }).from(cards).where(and(eq(cards.id, id), eq(cards.userGuid, ownerGuid))) : [];
      // A kept card of the list, or the card typed at checkout for this very order (chosen again).
      if (!card || (!card.kept && card.id !== order.selectedCardId)) throw notFound(CARD_NOT_FOUND);
      return { selectedCardId: card.id, usedSavedCard: card.kept };
    }
    case 'local_pickup': {
      const on = flag(value);
      if (on === null) throw validationError('local_pickup takes true or false.');
      // A picked-up order ships to nobody, the photographer's client included.
      if (on) await tx.delete(orderClientAddresses).where(eq(orderClientAddresses.labOrderId, order.id));
      return { localPickup: on };
    }
    case 'shipping_address_id': {
      const guid = idOrEmpty(value, ADDRESS_NOT_FOUND);
      if (!guid) return { shippingAddress: null };
      return { shippingAddress: await addressSnapshot(tx, ownerGuid, guid) };
    }
    case 'boutique_shipping': {
      const on = flag(value);
      if (on === null) throw validationError('boutique_shipping takes true or false.');
      if (!on) return { boutiqueShipping: false, boutiqueNote: null };
      const note = change.boutique_shipping_note?.trim() ?? '';
      if (!note || note.length > BOUTIQUE_NOTE_MAX) throw validationError(BOUTIQUE_NOTE_RULE);
      return { boutiqueShipping: true, boutiqueNote: note };
    }
    case 'blind_slip': {
      const on = flag(value);
      if (on === null) throw validationError('blind_slip takes true or false.');
      if (!on) return { blindSlip: false };
      const [client] = await tx.select({ orderId: orderClientAddresses.labOrderId }).from(orderClientAddresses).where(eq(orderClientAddresses.labOrderId, order.id));
      if (!blindSlipAllowed({ localPickup: order.localPickup, dropShip: client !== undefined })) throw validationError(BLIND_SLIP_NOT_ALLOWED);
      const [owner] = await tx.select({ businessName: users.businessName }).from(users).where(eq(users.guid, ownerGuid));
      if (!owner?.businessName.trim()) throw validationError(BLIND_SLIP_NEEDS_BUSINESS_NAME);
      return { blindSlip: true };
    }
    case 'shipping_method': {
      if (!isShippingSpeed(value)) throw validationError(SHIPPING_METHOD_RULE);
      // A speed is a way to ship: the order is no longer picked up.
      return { shippingSpeed: value, localPickup: false };
    }
    case 'permission_to_share':
      // docs/orders.md §7: true unless the value is 'no'.
      return { permissionToShare: !(value === 'no' || value === false) };
    case 'updated_at':
      return {};
  }
}

/** A saved address of the photographer, copied onto the order (it stays if the profile's copy is removed). */
export async function addressSnapshot(tx: Tx, ownerGuid: string, guid: string): Promise<ShippingAddressSnapshot> {
  const [row] = UUID.test(guid) ? await tx.select().from(addresses).where(and(eq(addresses.guid, guid), eq(addresses.userGuid, ownerGuid))) : [];
  if (!row) throw notFound(ADDRESS_NOT_FOUND);
  return { guid: row.guid, recipient: row.recipient, street: row.street, street2: row.street2, city: row.city, state: row.state, zip: row.zip, phone: row.phone };
}

const isChangeType = (type: string): type is ChangeType => (ORDER_CHANGE_TYPES as readonly string[]).includes(type);

/**
 * PATCH /lab_orders/{id}: the order's photographer or an admin; only while open (updated_at,
 * the client's cache bust, on any order). The change and the figures it moves are one transaction.
 */
export async function changeOrder(deps: ServerDeps, actor: Actor | null, orderGuid: string, change: OrderChange) {
  const { order, photographer } = await visibleOrder(deps, actor, orderGuid);
  const type = change.type;
  // The lab's admin panel and the colour-correction choice (issue 13, admin-order-changes.ts).
  if (isAdminChange(type)) return adminChangeOrder(deps, actor as Actor, order, photographer, type, change.value, change.reason);
  if (type === 'color_correction') return changeColorCorrection(deps, actor as Actor, order, photographer, change.value);
  if (!isChangeType(type)) throw validationError(`This server does not change ${type} of an order; it takes: ${[...ORDER_CHANGE_TYPES, ...ADMIN_CHANGE_TYPES, 'color_correction'].join(', ')}.`);
  if (type === 'updated_at') {
    if (change.value !== 'now') throw validationError("updated_at takes the value 'now'.");
    const [updated] = await deps.db.update(labOrders).set({ updatedAt: sql`now()` }).where(eq(labOrders.id, order.id)).returning();
    return fullOrderAnswer(deps, actor as Actor, updated ?? order, photographer);
  }
  const updated = await deps.db.transaction(async (tx) => {
    const locked = await lockOpenOrder(tx, order.id, notOpenToCheckout);
    const values = await changeValues(tx, deps, locked, type, change);
    await tx.update(labOrders).set(values).where(eq(labOrders.id, order.id));
    return refreshFigures(tx, order.id);
  });
  return fullOrderAnswer(deps, actor as Actor, updated, photographer);
}

/** Sets a just-saved address or card on the caller's own open order, in the caller's transaction. */
export async function setOnOwnOpenOrder(tx: Tx, actor: Actor, orderGuid: string, values: OrderSet): Promise<void> {
  if (!UUID.test(orderGuid)) throw notFound('This order does not exist.');
  const [order] = await tx
    .select({ id: labOrders.id })
    .from(labOrders)
    .where(and(eq(labOrders.guid, orderGuid), eq(labOrders.userGuid, actor.user.guid)));
  if (!order) throw notFound('This order does not exist.');
  await lockOpenOrder(tx, order.id, notOpenToCheckout);
  if (!Object.keys(values).length) return;
  await tx.update(labOrders).set(values).where(eq(labOrders.id, order.id));
  await refreshFigures(tx, order.id);
}
