import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { SHARED_OWNER } from '../../src/offline/cached-read.ts';
import { clearUserData } from '../../src/offline/clear-user-data.ts';
import { LabDatabase, type LineItemRow } from '../../src/offline/db.ts';
import { orderChanges } from '../../src/offline/order-changes.ts';
import { ownerOutbox } from '../../src/offline/outbox-drain.ts';
import { ORDER, OWNER, catalogue, payload } from './fixtures/fake-line-item-lab.ts';

let n = 0;
const dbs: LabDatabase[] = [];
afterEach(async () => {
  await Promise.all(dbs.splice(0).map((db) => db.delete()));
});

async function setup() {
  const db = new LabDatabase(`order-changes-${++n}`);
  dbs.push(db);
  await db.cachedReads.put({ key: `${SHARED_OWNER}|calculator_catalogue`, owner: SHARED_OWNER, savedAt: 1, payload: catalogue });
  await db.orders.put({
    guid: ORDER, owner: OWNER, name: 'Wedding', status: 'open', subtotalCents: 0, discountCents: 0, creditCents: 0, boutiqueCents: 0, shippingCents: 1000, totalCents: 1000, notes: null,
  });
  let told = 0;
  const changes = orderChanges({ db, owner: () => OWNER, afterChange: () => void told++, now: () => 1_000 });
  return { db, changes, told: () => told };
}

/** A stored line item as ADD TO CART writes it, read back (for a fixture row of that shape). */
async function addedRow(db: LabDatabase, changes: ReturnType<typeof orderChanges>, guid: string): Promise<LineItemRow> {
  await changes.addLineItems(ORDER, [payload(guid)]);
  const row = await db.lineItems.get(guid);
  if (!row) throw new Error('not added');
  await db.lineItems.clear();
  return row;
}

const rows = (db: LabDatabase) => db.lineItems.where('[owner+orderGuid]').equals([OWNER, ORDER]).sortBy('sortKey');

describe('cart changes on the device', () => {
  it('adds line items and their outbox row together, priced from the kept catalogue, and asks to send', async () => {
    const { db, changes, told } = await setup();
    await changes.addLineItems(ORDER, [payload('a'), payload('b', { finishing_service: 'svc-mat', finishing_service_details: ['o1'], finishing_service_detail: 'o1', quantity: 2 })]);
    const items = await rows(db);
    expect(items.map((i) => [i.guid, i.pending, i.printSize, i.paper, i.printPriceCents, i.finishingPriceCents, i.totalPriceCents])).toEqual([
      ['a', true, '8x10', 'Lustre', 1250, 0, 1250],
      ['b', true, '8x10', 'Lustre', 1250, 2500, 7500],
    ]);
    expect(items[1]).toMatchObject({ finishingService: '11x14 Mat', finishingCategory: 'four_ply_mat', finishingDetailOne: 'Standard', confirmed: null, refusal: null });
    const outbox = await ownerOutbox(db, OWNER);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ name: 'addLineItems', owner: OWNER, payload: { orderGuid: ORDER, lineItems: [{ guid: 'a' }, { guid: 'b' }] }, attempts: 0 });
    expect(outbox[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(await db.orders.get(ORDER)).toMatchObject({ subtotalCents: 8750, totalCents: 9750 });
    expect(told()).toBe(1);
  });

  it('posts new line items in batches of 30, in order', async () => {
    const { db, changes } = await setup();
    await changes.addLineItems(ORDER, Array.from({ length: 31 }, (_, i) => payload(`p${i}`)));
    const outbox = await ownerOutbox(db, OWNER);
    expect(outbox.map((e) => (e.payload as { lineItems: unknown[] }).lineItems.length)).toEqual([30, 1]);
    expect(outbox[0]!.seq! < outbox[1]!.seq!).toBe(true);
  });

  it('merges an add of the same photo, print size and finishing into a quantity update', async () => {
    const { db, changes } = await setup();
    await changes.addLineItems(ORDER, [payload('a', { source_photograph_guid: 'ph' })]);
    await changes.addLineItems(ORDER, [payload('a2', { source_photograph_guid: 'ph', print_border: 'quarter_inch' as never })]);
    expect((await rows(db)).map((i) => [i.guid, i.quantity])).toEqual([['a', 2]]);
    expect((await ownerOutbox(db, OWNER)).map((e) => [e.name, e.payload])).toEqual([
      ['addLineItems', { orderGuid: ORDER, lineItems: [payload('a', { source_photograph_guid: 'ph' })] }],
      ['updateQuantity', { orderGuid: ORDER, lineItemGuid: 'a', quantity: 2 }],
    ]);
  });

  it('updates, sets quantity, deletes (hidden until sent) and clears with one delete per line item', async () => {
    const { db, changes } = await setup();
    await changes.addLineItems(ORDER, [payload('a'), payload('b'), payload('c')]);
    await changes.updateLineItem(ORDER, payload('a', { notes: 'matte please', quantity: 3 }));
    await changes.setLineItemQuantity(ORDER, 'b', 4);
    await changes.deleteLineItem(ORDER, 'c');
    let items = await rows(db);
    expect(items.map((i) => [i.guid, i.quantity, i.notes, i.deleted])).toEqual([['a', 3, 'matte please', 0], ['b', 4, '', 0], ['c', 1, '', 1]]);
    expect((await ownerOutbox(db, OWNER)).map((e) => e.name)).toEqual(['addLineItems', 'updateLineItem', 'updateQuantity', 'deleteLineItem']);
    await changes.clearCart(ORDER);
    items = await rows(db);
    expect(items.every((i) => i.deleted === 1)).toBe(true);
    const deletes = (await ownerOutbox(db, OWNER)).slice(4);
    expect(deletes.map((e) => [e.name, (e.payload as { lineItemGuid: string }).lineItemGuid])).toEqual([['deleteLineItem', 'a'], ['deleteLineItem', 'b']]);
    expect(await db.orders.get(ORDER)).toMatchObject({ subtotalCents: 0, totalCents: 1000 });
  });

  it('writes nothing at all when a change is not valid', async () => {
    const { db, changes, told } = await setup();
    await expect(changes.addLineItems(ORDER, [payload('a'), payload('b', { quantity: 0 })])).rejects.toThrow(/quantity/);
    await expect(changes.setLineItemQuantity(ORDER, 'missing', 2)).rejects.toThrow(/no longer in the cart/);
    await changes.addLineItems(ORDER, [payload('a', { source_photograph_guid: 'ph' })]);
    // A failure inside the transaction: the quantity update of 'a' is written first, then adding
    // a new item under the guid 'a' fails; the update is undone with it and no outbox row stays.
    await expect(changes.addLineItems(ORDER, [payload('a2', { source_photograph_guid: 'ph' }), payload('a', { source_photograph_guid: 'other' })])).rejects.toThrow(/already exists|Constraint/);
    expect((await rows(db)).map((i) => [i.guid, i.quantity, i.photoGuid])).toEqual([['a', 1, 'ph']]);
    expect((await ownerOutbox(db, OWNER)).map((e) => e.name)).toEqual(['addLineItems']);
    expect(await db.orders.get(ORDER)).toMatchObject({ subtotalCents: 1250 });
    expect(told()).toBe(1);
  });

  it('ADD TO CART of 250 written in slices is still all or nothing: a failure in the last slice undoes the first ones', async () => {
    const { db, changes, told } = await setup();
    // A row deleted on the device under the guid of the 250th payload: the cart does not show it,
    // so the merge plans an add, and the last slice's bulkAdd fails on the existing key.
    await db.lineItems.put({ ...(await addedRow(db, changes, 'p249')), deleted: 1 });
    await db.outbox.clear();
    const before = await db.orders.get(ORDER);
    const many = Array.from({ length: 250 }, (_, i) => payload(`p${i}`));
    await expect(changes.addLineItems(ORDER, many)).rejects.toThrow(/already exists|Constraint/);
    expect((await db.lineItems.toArray()).map((r) => [r.guid, r.deleted])).toEqual([['p249', 1]]);
    expect(await ownerOutbox(db, OWNER)).toEqual([]);
    expect(await db.orders.get(ORDER)).toEqual(before);
    expect(told()).toBe(1);
  });

  it('while ADD TO CART of 1,000 is written, a reader sees none of it or all of it (never a half-added cart)', async () => {
    const { db, changes } = await setup();
    const many = Array.from({ length: 1000 }, (_, i) => payload(`p${i}`));
    const seen = new Set<string>();
    const state = { done: false };
    const adding = changes.addLineItems(ORDER, many).finally(() => (state.done = true));
    // What the outbox's drain would read: the entries and the rows, in one read transaction.
    while (!state.done) {
      const [items, entries] = await db.transaction('r', [db.lineItems, db.outbox], () => Promise.all([db.lineItems.count(), db.outbox.count()]));
      seen.add(`${items}/${entries}`);
    }
    await adding;
    seen.add(`${await db.lineItems.count()}/${await db.outbox.count()}`);
    expect([...seen].every((s) => s === '0/0' || s === '1000/34')).toBe(true);
    expect(seen.has('1000/34')).toBe(true);
    expect((await rows(db)).map((r) => r.guid)).toEqual(many.map((p) => p.guid));
    expect(await db.orders.get(ORDER)).toMatchObject({ subtotalCents: 1250 * 1000 });
  });

  it('the same photo twice in one add is one line item of quantity 2, priced for 2', async () => {
    const { db, changes } = await setup();
    await changes.addLineItems(ORDER, [payload('a', { source_photograph_guid: 'ph' }), payload('b'), payload('a2', { source_photograph_guid: 'ph' })]);
    expect((await rows(db)).map((i) => [i.guid, i.quantity, i.totalPriceCents])).toEqual([['a', 2, 2500], ['b', 1, 1250]]);
    expect(await db.orders.get(ORDER)).toMatchObject({ subtotalCents: 3750 });
  });

  it('ADD TO CART takes the photos\' addresses from the builder instead of reading the photo rows', async () => {
    const { db, changes } = await setup();
    await db.photos.put({ id: 'photo-a', owner: OWNER, orderGuid: ORDER, name: 'a.jpg', size: 1, checksum: null, createdAt: 1, smallestPhotoUrl: 'https://lab/stored-a.jpg' });
    await changes.addLineItems(ORDER, [payload('a'), payload('b')], new Map([['photo-a', 'https://lab/shown-a.jpg']]));
    expect((await rows(db)).map((r) => [r.guid, r.photoUrl])).toEqual([['a', 'https://lab/shown-a.jpg'], ['b', '']]);
    await changes.addLineItems(ORDER, [payload('c', { source_photograph_guid: 'photo-a', print_size: 'size-other' })]);
    expect((await db.lineItems.get('c'))?.photoUrl).toBe('https://lab/stored-a.jpg');
  });

  it('dismissing a refusal shows the lab\'s copy, or drops an item the lab never had', async () => {
    const { db, changes } = await setup();
    await changes.addLineItems(ORDER, [payload('a'), payload('b')]);
    await db.outbox.clear();
    const a = (await db.lineItems.get('a'))!;
    const confirmed = { ...a, quantity: 1 } as LineItemRow;
    await db.lineItems.put({ ...a, quantity: 5, pending: false, refusal: 'refused', confirmed: { ...confirmed } });
    await db.lineItems.update('b', { pending: false, refusal: 'refused' });
    await changes.dismissRefusal('a');
    await changes.dismissRefusal('b');
    expect((await rows(db)).map((i) => [i.guid, i.quantity, i.refusal])).toEqual([['a', 1, null]]);
  });
});

describe('sign-out', () => {
  it('keeps unsent changes and the line items they are about for their owner; forgets the rest and the worker tokens', async () => {
    const { db, changes } = await setup();
    await changes.addLineItems(ORDER, [payload('a'), payload('b')]);
    await db.lineItems.update('b', { pending: false });
    await db.orders.put({ ...(await db.orders.get(ORDER))!, guid: 'other-order' });
    await db.syncCredentials.put({ owner: OWNER, token: 't' });
    await clearUserData(db);
    expect(await db.outbox.count()).toBe(1);
    expect((await db.lineItems.toArray()).map((l) => l.guid)).toEqual(['a']);
    expect((await db.orders.toArray()).map((o) => o.guid)).toEqual([ORDER]);
    expect(await db.syncCredentials.count()).toBe(0);
  });
});

describe('print-lab database version 3', () => {
  it('keeps every version 2 table and row: queued uploads with their files, unsent changes, kept reads, photos', async () => {
    const name = `order-migration-${++n}`;
    const v2 = new Dexie(name);
    v2.version(1).stores({ cachedReads: 'key, owner', outbox: 'id, owner, createdAt', uploads: 'id, owner, orderGuid, createdAt' });
    v2.version(2).stores({
      uploads: 'id, owner, [orderGuid+seq], [owner+orderGuid], [owner+orderGuid+state], [owner+orderGuid+paused], [owner+state+seq], [owner+state+size]',
      uploadFiles: 'id',
      uploadParts: '[entryId+partNumber], entryId',
      uploadThumbnails: 'id',
      photos: 'id, owner, orderGuid, [orderGuid+checksum], [orderGuid+createdAt], [owner+orderGuid]',
      rejections: 'id, owner, orderGuid, createdAt, [owner+orderGuid]',
    });
    await v2.open();
    const upload = { id: 'u1', owner: OWNER, orderGuid: ORDER, createdAt: 3, seq: 3, name: 'a.jpg', size: 4, type: 'image/jpeg', lastModified: 1, state: 'queued', paused: 0, createKey: 'k' };
    await v2.table('uploads').put(upload);
    await v2.table('uploadFiles').put({ id: 'u1', file: new Blob(['jpeg']) });
    await v2.table('uploadParts').put({ entryId: 'u1', partNumber: 1, etag: '"e"', uploadId: 'up', size: 4 });
    const change = { id: 'unsent-1', owner: OWNER, createdAt: 2, name: 'updateQuantity', payload: { quantity: 2 } };
    await v2.table('outbox').bulkPut([change, { ...change, id: 'unsent-2', createdAt: 5 }]);
    await v2.table('cachedReads').put({ key: `${OWNER}|lab_orders`, owner: OWNER, savedAt: 1, payload: [1] });
    await v2.table('photos').put({ id: 'ph', owner: OWNER, orderGuid: ORDER, name: 'a.jpg', size: 4, checksum: null, createdAt: 1 });
    v2.close();

    const db = new LabDatabase(name);
    dbs.push(db);
    await db.open();
    // The newest version (4 adds the upload screen's indexes; 5 the orders list's index).
    expect(db.verno).toBe(5);
    expect(await db.uploads.get('u1')).toEqual(upload);
    expect(await db.uploadFiles.count()).toBe(1);
    expect(await db.uploadParts.count()).toBe(1);
    expect(await db.outbox.orderBy('createdAt').toArray()).toEqual([change, { ...change, id: 'unsent-2', createdAt: 5 }]);
    expect(await db.outbox.where('owner').equals(OWNER).count()).toBe(2);
    expect(await db.cachedReads.count()).toBe(1);
    expect(await db.photos.get('ph')).toMatchObject({ orderGuid: ORDER });
    expect(await db.orders.count()).toBe(0);
    expect(await db.lineItems.where('[owner+orderGuid]').equals([OWNER, ORDER]).count()).toBe(0);
  });
});
