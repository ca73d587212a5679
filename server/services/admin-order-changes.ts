import { eq } from 'drizzle-orm';
import { isOrderStatus, needsReasonWhenUnpaid, ORDER_STATUSES, STATUS_REASON_MAX, unpaidNeedsReason } from '../../src/domain/order-status.ts';
import type { OutgoingMail } from '../adapters/mail/mail-transport.ts';
import type { Tx } from '../db/client.ts';
import { labOrders, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { forbidden, notFound, validationError } from '../http/errors.ts';
import type { Actor, UserRow } from './auth-service.ts';
import { fullOrderAnswer } from './line-item-answer.ts';
import type { OrderRow } from './order-access.ts';
import { recordEvent } from './order-events.ts';
import { lockOpenOrder, refuseWhileBeingPaid } from './order-lock.ts';
import type { PartnerEventType } from '../../src/domain/partner-webhooks.ts';
import { kickDeliveries, queuePartnerEvent } from './partner-events.ts';
import { promiseShipDate } from './order-ship-dates.ts';

/**
 * The PATCH /lab_orders/{id} types of the lab's admin panel (status, tracking URL, admin note,
 * urgent) and the photographer's colour-correction choice (docs/api.md §6). Each change
 * and its event (and the shipped mail) are one transaction.
 */

export const ADMIN_CHANGE_TYPES = ['status', 'tracking_url', 'internal_notes', 'urgent'] as const;
export const COLOR_CORRECTIONS = ['lab', 'as_is'] as const;
// A carrier's tracking address is well under this; longer is no tracking link.
export const TRACKING_URL_MAX = 500;
// The admin note is a working note, not a document.
export const INTERNAL_NOTES_MAX = 5000;

type AdminType = (typeof ADMIN_CHANGE_TYPES)[number];

/** What a partner's webhook hears when an admin moves an order (framing and open are the lab's own steps). */
const PARTNER_EVENT_OF_STATUS: Partial<Record<string, PartnerEventType>> = {
  paid: 'order.accepted',
  printing: 'order.printing',
  shipped: 'order.shipped',
  cancelled: 'order.cancelled',
};
export const isAdminChange = (type: string): type is AdminType => (ADMIN_CHANGE_TYPES as readonly string[]).includes(type);

const STATUS_RULE = `status is one of ${ORDER_STATUSES.join(', ')}.`;

const TRACKING_RULE = `The tracking URL must be an http or https address of at most ${TRACKING_URL_MAX} characters.`;
const NOTES_RULE = `The admin note can be at most ${INTERNAL_NOTES_MAX} characters.`;
const COLOR_RULE = `color_correction is one of ${COLOR_CORRECTIONS.join(', ')}.`;

function trackingUrl(value: unknown): string | null {
  if (typeof value !== 'string') throw validationError(TRACKING_RULE);
  const text = value.trim();
  if (!text) return null;
  if (text.length > TRACKING_URL_MAX) throw validationError(TRACKING_RULE);
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw validationError(TRACKING_RULE);
  }
  return text;
}

/** The mail a photographer gets when the lab ships an order: where to follow the parcel. */
export function shippedMail(email: string, order: Pick<OrderRow, 'orderName' | 'trackingUrl' | 'userGuid'>): OutgoingMail {
  const follow = order.trackingUrl ? `Follow your parcel here:\n${order.trackingUrl}` : 'The lab will send you the tracking link as soon as the carrier gives it.';
  return {
    to: email,
    subject: `Your order ${order.orderName} has shipped`,
    text: [`Good news: your order ${order.orderName} is on its way.`, '', follow].join('\n'),
    statusStep: { userGuid: order.userGuid, step: 'shipped' },
  };
}

/** The mail a photographer gets when the lab starts printing an order. */
export function printingMail(email: string, order: Pick<OrderRow, 'orderName' | 'userGuid'>): OutgoingMail {
  return {
    to: email,
    subject: `Your order ${order.orderName} is printing`,
    text: [`The lab has started printing your order ${order.orderName}.`, '', 'You will get another mail, with the tracking link, when it ships.'].join('\n'),
    statusStep: { userGuid: order.userGuid, step: 'printing' },
  };
}

/** The change's mail, if any, and whether it wrote a partner webhook delivery (`told`). */
async function applyAdminChange(tx: Tx, actor: Actor, order: OrderRow, type: AdminType, value: unknown, reason: string | null): Promise<{ mail: OutgoingMail | null; told?: boolean }> {
  const set = (values: Partial<typeof labOrders.$inferInsert>) => tx.update(labOrders).set(values).where(eq(labOrders.id, order.id)).returning();
  const event = (kind: AdminType, from: string | null, to: string | null, detail: string | null = null) => recordEvent(tx, order.id, actor.user.guid, kind, { from, to, detail });
  switch (type) {
    case 'status': {
      if (typeof value !== 'string' || !isOrderStatus(value)) throw validationError(STATUS_RULE);
      if (value === order.status) return { mail: null };
      await refuseWhileBeingPaid(tx, order.id);
      // Printing unpaid work is never an accident: only with the admin's reason, kept in the history.
      const unpaid = !order.paidAt && needsReasonWhenUnpaid(value);
      if (unpaid && !reason) throw validationError(unpaidNeedsReason(value));
      const now = new Date();
      let [updated] = await set({
        status: value,
        // A date is set the first time the order reaches its status, and kept.
        ...(value === 'paid' && !order.paidAt ? { paidAt: now } : {}),
        ...(value === 'shipped' ? { shippedAt: now } : {}),
        ...(value === 'cancelled' && !order.cancelledAt ? { cancelledAt: now } : {}),
      });
      await event('status', order.status, value, unpaid ? reason : null);
      // Paid by other means: the lab promises a ship date as it does at checkout.
      if (value === 'paid' && updated && !updated.promisedShipDate) updated = await promiseShipDate(tx, updated);
      const told = PARTNER_EVENT_OF_STATUS[value];
      const queued = told && updated ? await queuePartnerEvent(tx, updated, told) : false;
      const mailOf = value === 'shipped' ? shippedMail : value === 'printing' ? printingMail : null;
      if (!mailOf || !updated) return { mail: null, told: queued };
      const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.guid, order.userGuid));
      return { mail: owner ? mailOf(owner.email, updated) : null, told: queued };
    }
    case 'tracking_url': {
      const url = trackingUrl(value);
      const [updated] = await set({ trackingUrl: url });
      await event('tracking_url', order.trackingUrl, url);
      // A tracking link given after the order shipped: the partner hears "shipped" again, with it.
      const told = updated?.status === 'shipped' && url && url !== order.trackingUrl ? await queuePartnerEvent(tx, updated, 'order.shipped') : false;
      return { mail: null, told };
    }
    case 'internal_notes': {
      if (typeof value !== 'string') throw validationError(NOTES_RULE);
      const text = value.trim();
      if (text.length > INTERNAL_NOTES_MAX) throw validationError(NOTES_RULE);
      await set({ internalNotes: text || null });
      await event('internal_notes', order.internalNotes, text || null);
      return { mail: null };
    }
    case 'urgent': {
      const on = value === true || value === 'true' ? true : value === false || value === 'false' ? false : null;
      if (on === null) throw validationError('urgent takes true or false.');
      if (on === order.urgent) return { mail: null };
      await set({ urgent: on });
      await event('urgent', String(order.urgent), String(on));
      return { mail: null };
    }
  }
}

/** An admin's change of an order; 403 for anyone else (a photographer, or an admin acting as one). */
export async function adminChangeOrder(deps: ServerDeps, actor: Actor, order: OrderRow, photographer: UserRow, type: AdminType, value: unknown, reasonText?: string) {
  if (!actor.user.isAdmin) throw forbidden();
  const reason = reasonText?.trim() || null;
  if (reason && reason.length > STATUS_REASON_MAX) throw validationError(`A reason can be at most ${STATUS_REASON_MAX} characters.`);
  const { updated, mailId, told } = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(labOrders).where(eq(labOrders.id, order.id)).for('update');
    if (!locked) throw notFound('This order does not exist.');
    const change = await applyAdminChange(tx, actor, locked, type, value, reason);
    const [row] = await tx.select().from(labOrders).where(eq(labOrders.id, order.id));
    return { updated: row ?? locked, mailId: change.mail ? await deps.mailer.queue(tx, change.mail) : null, told: change.told };
  });
  if (mailId) await deps.mailer.deliver(mailId);
  // Only a change that wrote a delivery queues one. The skip loses nothing: a delivery is written
  // in its change's transaction, and each change that wrote one kicks after its own commit, so a
  // delivery of another change (another request, another process) is never waiting on this one;
  // a kick that failed or a process that died before it is caught by the minute's housekeeping.
  if (told) await kickDeliveries(deps);
  return fullOrderAnswer(deps, actor, updated, photographer);
}

/** The photographer's colour-correction choice (or an admin's on their behalf), while the order is open. */
export async function changeColorCorrection(deps: ServerDeps, actor: Actor, order: OrderRow, photographer: UserRow, value: unknown) {
  if (typeof value !== 'string' || !(COLOR_CORRECTIONS as readonly string[]).includes(value)) throw validationError(COLOR_RULE);
  const updated = await deps.db.transaction(async (tx) => {
    const locked = await lockOpenOrder(tx, order.id, () => validationError('The colour correction can be changed only while the order is open.'));
    if (locked.colorCorrection === value) return locked;
    const [row] = await tx.update(labOrders).set({ colorCorrection: value }).where(eq(labOrders.id, order.id)).returning();
    await recordEvent(tx, order.id, actor.user.guid, 'color_correction', { from: locked.colorCorrection, to: value });
    return row ?? locked;
  });
  return fullOrderAnswer(deps, actor, updated, photographer);
}
