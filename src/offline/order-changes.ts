/**
 * The cart's changes, local first: each writes the line items, the order's figures and its
 * outbox rows in ONE Dexie transaction, so the screen shows it at once and it is sent later
 * exactly once (outbox-drain.ts). Nothing is written when the change is not valid.
 */
import { chunk } from '../domain/collections.ts';
import { isCalculatorCatalogue } from '../client-rules/calculator-catalogue.ts';
import { LINE_ITEM_BATCH_SIZE, type LineItemPayload } from '../domain/line-item-payload.ts';
import { planCartAdd } from '../domain/line-item-merge.ts';
import { groupThousands } from '../domain/money.ts';
import { MAX_QUANTITY, isValidQuantity } from '../domain/quantity.ts';
import { SHARED_OWNER } from './cached-read.ts';
import type { LabDatabase, LineItemRow } from './db.ts';
import { isBuilderOrder } from './order-row.ts';
import { newId } from '../client-rules/ids.ts';
import { localLineItem, withQuantity, type LocalLookup } from './local-line-item.ts';
import { mapInSlices } from './next-task.ts';
import { pendingLineItemGuids, retotal } from './order-apply.ts';
import type { OutboxName, OutboxPayloads } from './outbox-handlers.ts';

export interface ChangeContext {
  db: LabDatabase;
  /** The signed-in user (or the photographer an admin acts as); changes are theirs. */
  owner: () => string;
  /** Told after every change is stored: sends it when it can. */
  afterChange: () => void;
  now?: () => number;
}

// groupThousands, not toLocaleString: an Intl formatter's first use costs the page a long task (money.ts).
const QUANTITY_MESSAGE = `The quantity must be a whole number from 1 to ${groupThousands(MAX_QUANTITY)}.`;

/** Adds one outbox row; call inside a rw transaction on the outbox. */
export async function enqueue<K extends OutboxName>(db: LabDatabase, owner: string, name: K, payload: OutboxPayloads[K], now: number): Promise<void> {
  const last = await db.outbox.orderBy('seq').last();
  await db.outbox.add({ id: newId(), owner, createdAt: now, name, payload, seq: (last?.seq ?? 0) + 1, idempotencyKey: newId(), attempts: 0 });
}

/** The shown address of each photo, by guid, when the caller has the order's photos in hand. */
export type PhotoUrls = ReadonlyMap<string, string>;

/**
 * The catalogue kept on the device and the order's photos: for names and prices shown at once.
 * The builder passes the addresses of the photos it shows: reading the order's 1,000 photo rows
 * again (each with its thumbnail's Blob handle) was a task of its own of several milliseconds.
 */
async function readLookup(db: LabDatabase, owner: string, orderGuid: string, known?: PhotoUrls): Promise<LocalLookup> {
  const kept = await db.cachedReads.get(`${SHARED_OWNER}|calculator_catalogue`);
  const urls = known ?? new Map((await db.photos.where('[owner+orderGuid]').equals([owner, orderGuid]).toArray()).map((p) => [p.id, p.smallestPhotoUrl ?? '']));
  return { catalogue: isCalculatorCatalogue(kept?.payload) ? kept.payload : null, photoUrl: (guid) => urls.get(guid) ?? '' };
}

// Line items priced (localLineItem) per task before ADD TO CART's transaction. Before, all 1,000
// were priced and written in one long task (docs/performance.md, "builder 1,000").
const BUILD_SLICE = 200;
// Line items written per request of the transaction: each bulkAdd waits for IndexedDB, so each
// slice's copying into the store (structured clone, the larger part) runs in a task of its own.
const WRITE_SLICE = 100;

export function orderChanges(ctx: ChangeContext) {
  const { db } = ctx;
  const now = ctx.now ?? Date.now;
  const tables = [db.lineItems, db.outbox, db.orders];

  const cartRows = (owner: string, orderGuid: string) =>
    db.lineItems.where('[owner+orderGuid]').equals([owner, orderGuid]).filter((r) => !r.deleted).toArray();

  /** Writes the order's subtotal and total from the lines now shown. */
  async function retotalOrder(owner: string, orderGuid: string): Promise<void> {
    const order = await db.orders.get(orderGuid);
    if (isBuilderOrder(order)) await db.orders.put(retotal(order, await cartRows(owner, orderGuid)));
  }

  /**
   * One change in one transaction. `write` may answer the cart's rows as they now are, which it
   * has in hand (ADD TO CART): the total is then not read back from 1,000 rows.
   */
  async function change(orderGuid: string, write: (owner: string, at: number) => Promise<LineItemRow[] | void>): Promise<void> {
    const owner = ctx.owner();
    await db.transaction('rw', tables, async () => {
      const shown = await write(owner, now());
      if (!shown) return retotalOrder(owner, orderGuid);
      const order = await db.orders.get(orderGuid);
      if (isBuilderOrder(order)) await db.orders.put(retotal(order, shown));
    });
    ctx.afterChange();
  }

  async function existing(owner: string, lineItemGuid: string): Promise<LineItemRow> {
    const row = await db.lineItems.get(lineItemGuid);
    if (!row || row.owner !== owner || row.deleted) throw new RangeError('That line item is no longer in the cart.');
    return row;
  }

  return {
    /**
     * ADD TO CART: the merge rule first (planCartAdd), then new items in POSTs of 30.
     *
     * All or nothing: the line items and every outbox entry that posts them are written in ONE
     * transaction, so the outbox can never send part of a cart whose rest was not saved. What is
     * split is only the main thread's work around it: the rows are priced a slice per task
     * BEFORE the transaction (nothing is written yet; the browser may take its turn between), and
     * inside it they are written a slice per request, each awaited. A request still pending keeps
     * an IndexedDB transaction open, so the slices commit together or, on any failure, not at all
     * (tests/unit/order-changes.test.ts aborts one at the last slice).
     */
    async addLineItems(orderGuid: string, payloads: LineItemPayload[], photoUrls?: PhotoUrls): Promise<void> {
      if (!payloads.every((p) => isValidQuantity(p.quantity))) throw new RangeError(QUANTITY_MESSAGE);
      const owner = ctx.owner();
      const lookup = await readLookup(db, owner, orderGuid, photoUrls);
      const built = await mapInSlices(payloads, BUILD_SLICE, (p) => localLineItem(orderGuid, p, lookup));
      // By payload, not guid: the merge rule answers a new payload object (a raised quantity) for
      // a photo added twice in one go, and that one is priced again below.
      const priced = new Map(payloads.map((p, i) => [p, built[i]]));
      await change(orderGuid, async (_, at) => {
        const current = await cartRows(owner, orderGuid);
        const plan = planCartAdd(
          current.map((r) => ({ guid: r.guid, quantity: r.quantity, photoGuid: r.photoGuid, printSizeGuid: r.printSizeGuid, finishingServiceGuid: r.finishingServiceGuid })),
          payloads,
        );
        const shown = new Map(current.map((r) => [r.guid, r]));
        for (const update of plan.quantityUpdates) {
          const row = await existing(owner, update.guid);
          const next = { ...withQuantity(row, update.quantity), pending: true };
          await db.lineItems.put(next);
          shown.set(next.guid, next);
          await enqueue(db, owner, 'updateQuantity', { orderGuid, lineItemGuid: update.guid, quantity: update.quantity }, at);
        }
        let sortKey = at;
        for (const slice of chunk(plan.post, WRITE_SLICE)) {
          const rows = slice.map((p): LineItemRow => ({
            ...(priced.get(p) ?? localLineItem(orderGuid, p, lookup)),
            orderGuid,
            owner,
            pending: true,
            refusal: null,
            sortKey: sortKey++,
            deleted: 0,
            confirmed: null,
          }));
          await db.lineItems.bulkAdd(rows);
          for (const row of rows) shown.set(row.guid, row);
        }
        for (const batch of chunk(plan.post, LINE_ITEM_BATCH_SIZE)) await enqueue(db, owner, 'addLineItems', { orderGuid, lineItems: batch }, at);
        return [...shown.values()];
      });
    },

    /** UPDATE on the line-item edit screen: the whole item as the builder now has it. */
    async updateLineItem(orderGuid: string, payload: LineItemPayload): Promise<void> {
      if (!isValidQuantity(payload.quantity)) throw new RangeError(QUANTITY_MESSAGE);
      const owner = ctx.owner();
      const lookup = await readLookup(db, owner, orderGuid);
      await change(orderGuid, async (_, at) => {
        const row = await existing(owner, payload.guid);
        await db.lineItems.put({ ...row, ...localLineItem(orderGuid, payload, lookup, row), pending: true });
        await enqueue(db, owner, 'updateLineItem', { orderGuid, lineItem: payload }, at);
      });
    },

    async setLineItemQuantity(orderGuid: string, lineItemGuid: string, quantity: number): Promise<void> {
      if (!isValidQuantity(quantity)) throw new RangeError(QUANTITY_MESSAGE);
      await change(orderGuid, async (owner, at) => {
        const row = await existing(owner, lineItemGuid);
        await db.lineItems.put({ ...withQuantity(row, quantity), pending: true });
        await enqueue(db, owner, 'updateQuantity', { orderGuid, lineItemGuid, quantity }, at);
      });
    },

    /** Hidden at once; shown again with the lab's refusal if the lab refuses. */
    async deleteLineItem(orderGuid: string, lineItemGuid: string): Promise<void> {
      await change(orderGuid, async (owner, at) => {
        const row = await existing(owner, lineItemGuid);
        await db.lineItems.put({ ...row, deleted: 1, pending: true, refusal: null, gone: false });
        await enqueue(db, owner, 'deleteLineItem', { orderGuid, lineItemGuid }, at);
      });
    },

    /** CLEAR CART: one delete per line item, all in the one transaction. */
    async clearCart(orderGuid: string): Promise<void> {
      await change(orderGuid, async (owner, at) => {
        for (const row of await cartRows(owner, orderGuid)) {
          await db.lineItems.put({ ...row, deleted: 1, pending: true, refusal: null, gone: false });
          await enqueue(db, owner, 'deleteLineItem', { orderGuid, lineItemGuid: row.guid }, at);
        }
      });
    },

    /**
     * The user has seen a refusal: the item shows what the lab has (its last confirmed copy), or
     * goes when the lab never had it. A change of it still waiting stays shown.
     */
    async dismissRefusal(lineItemGuid: string): Promise<void> {
      const owner = ctx.owner();
      const row = await db.lineItems.get(lineItemGuid);
      if (!row || row.owner !== owner) return;
      await db.transaction('rw', tables, async () => {
        const pending = (await pendingLineItemGuids(db, owner)).has(lineItemGuid);
        if (pending) await db.lineItems.update(lineItemGuid, { refusal: null, gone: false });
        else if (row.confirmed) await db.lineItems.put({ ...row, ...row.confirmed, refusal: null, gone: false, pending: false, deleted: 0 });
        else await db.lineItems.delete(lineItemGuid);
        await retotalOrder(owner, row.labOrderGuid);
      });
    },
  };
}

export type OrderChanges = ReturnType<typeof orderChanges>;
