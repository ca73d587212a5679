/**
 * The builder's, the review's and the preview's one source of orders and line items
 * (docs/upload-and-sync.md §2): screens read these hooks and call these functions, never
 * fetch. Changes are kept on the device at once and sent later, exactly once (order-changes.ts,
 * outbox-drain.ts); refreshOrder fills the tables from the lab without losing changes on their way.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { ApiError } from '../api/errors.ts';
import { labLineItemApi } from '../api/line-items.ts';
import { useSession } from '../api/session.ts';
import type { LineItemCalls } from '../api/line-item-calls.ts';
import { isOnline, useConnectivity } from './connectivity.ts';
import { labDb, type LabDatabase, type LineItemRow, type LocalLineItem, type LocalOrder } from './db.ts';
import { applyFullOrder } from './order-apply.ts';
import { readWholeOrder } from './order-read.ts';
import { isBuilderOrder } from './order-row.ts';
import { orderChanges } from './order-changes.ts';
import { currentOwner } from './current-owner.ts';
import { outboxIdle } from './outbox-idle.ts';
import { GONE_TEXT, appliedSendCount, sentStampOf } from './sent-marks.ts';
import { countWaitingChanges } from './waiting-work.ts';

export type { LocalLineItem, LocalOrder } from './db.ts';

const useOwner = () => useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');

/** The order as the device has it; null when it has none of it (yet); undefined while reading. */
export function useLocalOrder(orderGuid: string): LocalOrder | null | undefined {
  const owner = useOwner();
  return useLiveQuery(async () => {
    const order = await labDb.orders.get(orderGuid);
    // A row only the orders list filled has no figures yet: the device has none of the order.
    return isBuilderOrder(order) && order.owner === owner ? order : null;
  }, [orderGuid, owner]);
}

/**
 * The lab no longer has this line item (deleted elsewhere): there is nothing left to edit. The
 * drain's flag says so; a row refused before the flag existed is known by its refusal's words.
 */
export const goneFromLab = (item: Pick<LocalLineItem, 'refusal' | 'gone'>): boolean => item.gone ?? item.refusal === GONE_TEXT;

/** What screens see of a stored row (the sync's own fields stay inside). */
export function shownLineItem(row: LineItemRow): LocalLineItem {
  const { deleted: _deleted, confirmed: _confirmed, orderGuid: _orderGuid, ...shown } = row;
  return shown;
}

/** The order's line items in cart order, deletions not yet sent left out; undefined while reading. */
export function useLocalLineItems(orderGuid: string): LocalLineItem[] | undefined {
  const owner = useOwner();
  return useLiveQuery(async () => {
    const rows = await labDb.lineItems.where('[owner+orderGuid]').equals([owner, orderGuid]).toArray();
    return rows.filter((r) => !r.deleted).sort((a, b) => a.sortKey - b.sortKey).map(shownLineItem);
  }, [orderGuid, owner]);
}

/**
 * How many of the user's changes wait to be sent, of one order when `orderGuid` is given: the
 * status bar's count (waiting-work.ts), so the cart and the bar never disagree.
 */
export function usePendingChanges(orderGuid?: string): number {
  const owner = useOwner();
  return useLiveQuery(() => countWaitingChanges(labDb, owner, orderGuid), [owner, orderGuid]) ?? 0;
}

// A send finishing while the order was being read makes that read older than the tables: read
// again, at most this many times, then keep what the sends wrote.
const REFRESH_READS = 2;

/** Fills the order and its line items from the lab; nothing offline. Throws the lab's refusal (404 …). */
export async function refreshOrderWith(orderGuid: string, owner: string, calls: LineItemCalls, db: LabDatabase): Promise<void> {
  if (!owner) return;
  for (let read = 0; read < REFRESH_READS; read++) {
    // Two signs of a send answered meanwhile: this page's count (also when the order has no copy
    // here yet), and the order's stamp, which the service worker's and other tabs' drains move too.
    const before = appliedSendCount();
    const stamp = await sentStampOf(db, orderGuid);
    let full;
    try {
      full = await readWholeOrder(calls, orderGuid);
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'network') return;
      throw err;
    }
    // Checked inside the transaction: a send applied between this check and the write would
    // otherwise be overwritten by the older read (a line item just sent would vanish).
    const applied = await db.transaction('rw', [db.orders, db.lineItems, db.outbox], async () => {
      if (appliedSendCount() !== before || (await sentStampOf(db, orderGuid)) !== stamp) return false;
      await applyFullOrder(db, owner, full);
      return true;
    });
    if (applied) return;
  }
}

// While this page is sending changes, a read of the order is older than the answers that come
// in meanwhile and is thrown away (refreshOrderWith): after ADD TO CART of 1,000 photos the review
// read 5 pages of the cart, up to twice, during the 34 sends, and rendered the stale copy. The
// read waits for the sending to stop instead; a send of a big cart over a slow link can take
// longer than this, and the read then goes ahead (with its guard) rather than wait on.
const SENDING_WAIT_MS = 20_000;

export async function refreshOrder(orderGuid: string): Promise<void> {
  if (!isOnline(useConnectivity.getState())) return;
  await outboxIdle(SENDING_WAIT_MS);
  return refreshOrderWith(orderGuid, currentOwner(), labLineItemApi, labDb);
}

const changes = orderChanges({
  db: labDb,
  owner: () => {
    const owner = currentOwner();
    if (!owner) throw new Error('Sign in to change the cart.');
    return owner;
  },
  // The sender is loaded with the first change: the builder and the review show no change of
  // their own on opening, so their first screen goes without its code.
  afterChange: () => {
    import('./outbox-sync.ts').then(
      ({ kickOutbox }) => kickOutbox(),
      (err: unknown) => console.error('could not load the sender of changes', err),
    );
  },
});

export const { addLineItems, updateLineItem, setLineItemQuantity, deleteLineItem, clearCart, dismissRefusal } = changes;
