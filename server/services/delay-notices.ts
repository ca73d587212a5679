import { and, eq, lt, sql } from 'drizzle-orm';
import { addBusinessDays, formatArrival, formatLabDay, isBusinessDay, isLabDate, labDateOf, shipDatesFrom, type LabDate } from '../../src/domain/ship-dates.ts';
import { DELAY_REASON_MAX } from '../../src/contract/order-tools.ts';
import type { OutgoingMail } from '../adapters/mail/mail-transport.ts';
import type { Tx } from '../db/client.ts';
import { labOrders, orderDelays, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { validationError } from '../http/errors.ts';
import { requireAdmin } from './admin-guard.ts';
import type { Actor } from './auth-service.ts';
import { fullOrderAnswer } from './line-item-answer.ts';
import { visibleOrder, type OrderRow } from './order-access.ts';
import { labCalendar, shippingSpeedOf } from './order-ship-dates.ts';
import { kickDeliveries, queuePartnerEvent } from './partner-events.ts';

/**
 * Delay notices (issue 34, "Nobody waits in silence"): an order the lab has not shipped by the
 * day it promised gets a new promised day and one notice, a status mail and the partner event
 * order.delayed, found by the lab's schedule (job-workers.ts) or posted by an admin with a reason.
 * Each delay is a row of order_delays, written with its mail and event in one transaction, so
 * the photographer hears of it once.
 */

// A late order goes to the front of the lab's queue: two business days is a date the lab keeps.
export const DELAY_BUSINESS_DAYS = 2;
// Late orders handled per sweep; any more wait for the next minute's.
const SWEEP_BATCH = 100;
export const SCHEDULE_REASON = 'Your order is taking the lab longer than it promised. It is at the front of the queue.';
const DELAY_DATE_RULE = 'The new ship date must be a working day of the lab (YYYY-MM-DD: no weekend or holiday) later than today and than the date promised now.';
const NOT_IN_THE_LAB = 'Only a paid order the lab has not shipped can be delayed.';

// The statuses of an order the lab still has to ship (as lab_orders_promised_idx's predicate).
const IN_THE_LAB = sql`${labOrders.status} in ('paid', 'printing', 'framing')`;

type Declared = { by: 'schedule' } | { by: 'admin'; adminGuid: string };
type Deps = Pick<ServerDeps, 'db' | 'mailer' | 'jobs' | 'config' | 'log'> & { now?: (() => Date) | undefined };

/** The mail telling the photographer of a delay, with the new dates. */
export function delayedMail(email: string, order: OrderRow, oldDate: LabDate | null, reason: string): OutgoingMail {
  const promised = order.promisedShipDate ?? '';
  const dates = shipDatesFrom(promised, shippingSpeedOf(order));
  const arrives = dates.arrives_from && dates.arrives_to ? ` and should arrive ${formatArrival(dates.arrives_from, dates.arrives_to)}` : '';
  return {
    to: email,
    subject: `Your order ${order.orderName} has a new ship date: ${formatLabDay(promised)}`,
    text: [
      `We are sorry: your order ${order.orderName} will not ship${oldDate ? ` by ${formatLabDay(oldDate)}` : ''} as the lab promised.`,
      `It now ships by ${formatLabDay(promised)}${arrives}.`,
      '',
      `Why: ${reason}`,
    ].join('\n'),
    statusStep: { userGuid: order.userGuid, step: 'delayed' },
  };
}

/** In the caller's transaction, on the locked order: the new date, the delay, its event and its mail. */
async function declareDelay(tx: Tx, deps: Pick<Deps, 'mailer'>, order: OrderRow, newDate: LabDate, reason: string, declared: Declared): Promise<string | null> {
  const [updated] = await tx.update(labOrders).set({ promisedShipDate: newDate }).where(eq(labOrders.id, order.id)).returning();
  if (!updated) throw new Error('delayed order not found');
  await tx.insert(orderDelays).values({
    labOrderId: order.id,
    oldDate: order.promisedShipDate,
    newDate,
    reason,
    declaredBy: declared.by,
    adminGuid: declared.by === 'admin' ? declared.adminGuid : null,
  });
  await queuePartnerEvent(tx, updated, 'order.delayed', undefined, { old_ship_by: order.promisedShipDate, new_ship_by: newDate, reason });
  const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.guid, order.userGuid));
  return owner ? deps.mailer.queue(tx, delayedMail(owner.email, updated, order.promisedShipDate, reason)) : null;
}

/**
 * The schedule's sweep: every order still in the lab whose promised day has passed gets a delay.
 * Each order in its own transaction, claimed with SKIP LOCKED and checked again under the lock,
 * so two processes sweeping at once (or a sweep and an admin) never declare one delay twice.
 */
export async function noticeLateOrders(deps: Deps): Promise<number> {
  const today = labDateOf(deps.now?.() ?? new Date());
  const late = and(IN_THE_LAB, lt(labOrders.promisedShipDate, today));
  const found = await deps.db.select({ id: labOrders.id }).from(labOrders).where(late).limit(SWEEP_BATCH);
  if (!found.length) return 0;
  const newDate = addBusinessDays(today, DELAY_BUSINESS_DAYS, (await labCalendar(deps.db)).holidays);
  let declared = 0;
  for (const { id } of found) {
    const mailId = await deps.db.transaction(async (tx) => {
      const [order] = await tx
        .select()
        .from(labOrders)
        .where(and(eq(labOrders.id, id), late))
        .for('update', { skipLocked: true });
      if (!order) return undefined;
      return declareDelay(tx, deps, order, newDate, SCHEDULE_REASON, { by: 'schedule' });
    });
    if (mailId === undefined) continue;
    declared += 1;
    if (mailId) await deps.mailer.deliver(mailId);
  }
  if (declared) await kickDeliveries(deps);
  return declared;
}

/** An admin's delay with the reason the photographer reads; 403 for anyone else. */
export async function postDelay(deps: ServerDeps, actor: Actor | null, guid: string, input: { ship_by: string; reason: string }) {
  const admin = requireAdmin(actor);
  const reason = input.reason.trim();
  if (!reason) throw validationError('Give the reason the photographer will read.');
  if (reason.length > DELAY_REASON_MAX) throw validationError(`A reason can be at most ${DELAY_REASON_MAX} characters.`);
  if (!isLabDate(input.ship_by) || !isBusinessDay(input.ship_by, (await labCalendar(deps.db)).holidays)) throw validationError(DELAY_DATE_RULE);
  const { order, photographer } = await visibleOrder(deps, admin, guid);
  const { updated, mailId } = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(labOrders).where(and(eq(labOrders.id, order.id), IN_THE_LAB)).for('update');
    if (!locked?.paidAt) throw validationError(NOT_IN_THE_LAB);
    const today = labDateOf(deps.now?.() ?? new Date());
    const after = locked.promisedShipDate && locked.promisedShipDate > today ? locked.promisedShipDate : today;
    if (input.ship_by <= after) throw validationError(DELAY_DATE_RULE);
    const id = await declareDelay(tx, deps, locked, input.ship_by, reason, { by: 'admin', adminGuid: admin.user.guid });
    const [row] = await tx.select().from(labOrders).where(eq(labOrders.id, order.id));
    return { updated: row ?? locked, mailId: id };
  });
  if (mailId) await deps.mailer.deliver(mailId);
  await kickDeliveries(deps);
  return fullOrderAnswer(deps, admin, updated, photographer);
}
