/**
 * The marks a sent change leaves, which readers of an order check without the sender
 * (outbox-drain.ts) loaded: the count of answers written in this page, the order's sentStamp, and
 * the words of a refusal for a line item the lab no longer has.
 */
import { newId } from '../client-rules/ids.ts';
import type { LabDatabase } from './db.ts';

export const GONE_TEXT =
  'This line item is no longer in the lab’s cart: it was deleted on another device or by the lab, so this change was not made. Dismiss it, and add the photo again from the builder if you still want it.';

let appliedSends = 0;
/** Counts answers written in this context: a read begun before one may be older than it. */
export const appliedSendCount = (): number => appliedSends;
/** Call inside the transaction that writes a send's answer (with stampSent). */
export const countAppliedSend = (): void => {
  appliedSends += 1;
};

/**
 * Call inside the transaction that writes a send's answer: gives the order a new sentStamp, so a
 * read of it begun before (in this page, another tab, or while the service worker drains) is
 * known to be older and read again. A unique value, not a count: a write of the order that drops
 * the field can never bring back the value a read started from.
 */
export async function stampSent(db: LabDatabase, orderGuid: string): Promise<void> {
  const order = await db.orders.get(orderGuid);
  if (order) await db.orders.put({ ...order, sentStamp: `${Date.now().toString(36)}-${newId()}` });
}

/** The order's sentStamp now (see stampSent); undefined before the first answer or with no copy. */
export const sentStampOf = async (db: LabDatabase, orderGuid: string): Promise<string | undefined> => (await db.orders.get(orderGuid))?.sentStamp;

