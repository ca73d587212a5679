import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, labOrders, lineItems, photographs } from '../../server/db/schema.ts';
import { expectErrorBody, type TestApp } from './helper.ts';
import { callAs } from './photo-helpers.ts';
import { addItems, addPhotos, fullOrder, labWithAdmin, orderDetail, orderWithPhotos, payload, type Products } from './line-items-helpers.ts';

/** Reorder and merge (docs/lab-rules.md §2). */

let t: TestApp;
let p: Products;
let admin: string;
beforeAll(async () => {
  ({ t, p, admin } = await labWithAdmin());
});
afterAll(() => t.close());

const photosOf = async (guid: string) => {
  const [order] = await t.db.select().from(labOrders).where(eq(labOrders.guid, guid));
  return t.db.select().from(photographs).where(eq(photographs.labOrderId, order?.id ?? 0)).orderBy(photographs.id);
};
const framed = (photo: string) => payload(photo, p.size.guid, { finishing_service: p.frame.guid, finishing_service_detail: p.frameDetails[0] ?? null, finishing_service_details: p.frameDetails, quantity: 2 });

describe('POST /lab_orders/{id}/reorder', () => {
  it('makes a new open order with the same photos (no bytes copied) and line items', async () => {
    const o = await orderWithPhotos(t, 2);
    expect((await addItems(t, o.token, o.order, [framed(o.photos[0] ?? ''), payload(o.photos[1] ?? '', p.size.guid)])).status).toBe(201);
    await t.db.update(labOrders).set({ status: 'shipped', paidAt: new Date() }).where(eq(labOrders.guid, o.order));
    const res = await callAs(t.app, 'POST /lab_orders/:guid/reorder', { params: { guid: o.order }, body: { order_name: 'Again' } }, { token: o.token });
    expect(res.status).toBe(201);
    const copy = res.json().data.attributes;
    expect(copy).toMatchObject({ order_name: 'Again', status: 'open' });
    expect(copy.guid).not.toBe(o.order);
    const [before, after] = [await photosOf(o.order), await photosOf(copy.guid)];
    expect(after.map((ph) => [ph.key, ph.checksum, ph.fileName])).toEqual(before.map((ph) => [ph.key, ph.checksum, ph.fileName]));
    const lines = (await fullOrder(t, o.token, copy.guid)).data.line_items;
    expect(lines.map((l) => [l.quantity, l.finishing_service?.finishing_service_guid ?? null])).toEqual([
      [2, p.frame.guid],
      [1, null],
    ]);
    const original = await fullOrder(t, o.token, o.order);
    expect((await fullOrder(t, o.token, copy.guid)).data.attributes.subtotal).toBe(original.data.attributes.subtotal);
    // Deleting the reorder keeps the originals the first order still names.
    expect((await callAs(t.app, 'DELETE /lab_orders/:guid', { params: { guid: copy.guid } }, { token: o.token })).status).toBe(200);
    for (const ph of before) expect(await t.storage.head(ph.key)).not.toBeNull();
  });

  it('refuses a name in use, and another photographer’s order (404)', async () => {
    const o = await orderWithPhotos(t, 1);
    const taken = await callAs(t.app, 'POST /lab_orders/:guid/reorder', { params: { guid: o.order }, body: { order_name: (await fullOrder(t, o.token, o.order)).data.attributes.order_name as string } }, { token: o.token });
    expect(taken.status).toBe(422);
    const other = await orderWithPhotos(t, 0);
    expect((await callAs(t.app, 'POST /lab_orders/:guid/reorder', { params: { guid: o.order }, body: { order_name: 'Mine now' } }, { token: other.token })).status).toBe(404);
  });
});

describe('POST /lab-orders/merge', () => {
  it('moves line items and photos into the first order, a shared photo kept once, and deletes the second', async () => {
    const a = await orderWithPhotos(t, 1);
    expect((await addItems(t, a.token, a.order, [payload(a.photos[0] ?? '', p.size.guid)])).status).toBe(201);
    const second = (await callAs(t.app, 'POST /lab_orders', { body: { order_name: 'Second' } }, { token: a.token })).json().data.attributes.guid;
    const [own = ''] = await addPhotos(t, second, 1, { width: 320, height: 200 });
    // The same bytes as the first order's photo (by checksum) in the second order too.
    const [firstPhoto] = await photosOf(a.order);
    const [secondRow] = await t.db.select().from(labOrders).where(eq(labOrders.guid, second));
    const [twin] = await t.db
      .insert(photographs)
      .values({ labOrderId: secondRow?.id ?? 0, fileName: 'twin.jpg', key: `photos/${second}/twin.jpg`, size: 1, checksum: firstPhoto?.checksum ?? '', contentType: 'image/jpeg', width: 300, height: 200 })
      .returning();
    await t.storage.put(`photos/${second}/twin.jpg`, Buffer.from('x'), 'image/jpeg');
    expect((await addItems(t, a.token, second, [framed(own), payload(twin?.guid ?? '', p.size.guid, { quantity: 3 })])).status).toBe(201);

    const res = await callAs(t.app, 'POST /lab-orders/merge', { body: { orders: [a.order, second] } }, { token: admin });
    expect(res.status).toBe(200);
    const merged = res.json().data;
    expect(merged.line_items).toHaveLength(3);
    const photos = await photosOf(a.order);
    expect(photos.map((ph) => ph.checksum).sort()).toEqual([firstPhoto?.checksum, (await t.db.select().from(photographs).where(eq(photographs.guid, own)))[0]?.checksum].sort());
    expect(await t.db.select().from(labOrders).where(eq(labOrders.guid, second))).toEqual([]);
    const items = await t.db.select().from(lineItems).where(eq(lineItems.labOrderId, photos[0]?.labOrderId ?? 0));
    expect(items.filter((i) => i.photographId === firstPhoto?.id).map((i) => i.quantity).sort()).toEqual([1, 3]);
    expect(await t.storage.head(`photos/${second}/twin.jpg`)).toBeNull();
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, a.order));
    expect(row).toMatchObject({ hasFrame: true, lineItemCount: 3 });
    expect((await orderDetail(t, admin, a.order)).events?.[0]).toMatchObject({ kind: 'merge', from: second });
  });

  it('refuses with why: one order twice, a paid order, two photographers; photographers get 403', async () => {
    const a = await orderWithPhotos(t, 0);
    const b = await orderWithPhotos(t, 0);
    const paid = (await callAs(t.app, 'POST /lab_orders', { body: { order_name: 'Paid' } }, { token: a.token })).json().data.attributes.guid;
    await t.db.update(labOrders).set({ status: 'paid' }).where(eq(labOrders.guid, paid));
    const cases: [[string, string], string][] = [
      [[a.order, a.order], 'Choose two different orders to merge.'],
      [[a.order, paid], 'Only open orders can be merged: one of these is no longer open.'],
      [[a.order, b.order], 'Only orders of the same photographer can be merged.'],
    ];
    for (const [orders, message] of cases) {
      const res = await callAs(t.app, 'POST /lab-orders/merge', { body: { orders } }, { token: admin });
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toBe(message);
    }
    expect((await callAs(t.app, 'POST /lab-orders/merge', { body: { orders: [a.order, paid] } }, { token: a.token })).status).toBe(403);
    expect(await t.db.select().from(labOrders).where(eq(labOrders.guid, paid))).toHaveLength(1);
  });
});

describe('reorder and merge whose answer a crash lost', () => {
  // What kill -9 between the change's commit and its answer leaves: the key's claim, no answer,
  // taken over by the retry once a minute old.
  const crashed = (key: string) =>
    t.db.update(idempotencyKeys).set({ statusCode: null, response: null, createdAt: sql`now() - interval '2 minutes'` }).where(eq(idempotencyKeys.key, key));

  it('a reorder sent again under its key answers the order it made, and makes no second one', async () => {
    const o = await orderWithPhotos(t, 1);
    const first = await callAs(t.app, 'POST /lab_orders/:guid/reorder', { params: { guid: o.order }, body: { order_name: 'Reprint after crash' } }, { token: o.token, headers: { 'idempotency-key': 'reorder-crash' } });
    expect(first.status).toBe(201);
    await crashed('reorder-crash');
    const again = await callAs(t.app, 'POST /lab_orders/:guid/reorder', { params: { guid: o.order }, body: { order_name: 'Reprint after crash' } }, { token: o.token, headers: { 'idempotency-key': 'reorder-crash' } });
    expect(again.status).toBe(201);
    expect(again.json().data.attributes.guid).toBe(first.json().data.attributes.guid);
    expect(await t.db.select().from(labOrders).where(eq(labOrders.userGuid, o.user.guid))).toHaveLength(2);
  });

  it('a merge sent again under its key answers the merged order instead of "does not exist"', async () => {
    const a = await orderWithPhotos(t, 1);
    const second = (await callAs(t.app, 'POST /lab_orders', { body: { order_name: 'Merged after crash' } }, { token: a.token })).json().data.attributes.guid;
    await addPhotos(t, second, 1, { width: 310, height: 200 });
    const first = await callAs(t.app, 'POST /lab-orders/merge', { body: { orders: [a.order, second] } }, { token: admin, headers: { 'idempotency-key': 'merge-crash' } });
    expect(first.status).toBe(200);
    await crashed('merge-crash');
    const again = await callAs(t.app, 'POST /lab-orders/merge', { body: { orders: [a.order, second] } }, { token: admin, headers: { 'idempotency-key': 'merge-crash' } });
    expect(again.status).toBe(200);
    expect(again.json().data.attributes.guid).toBe(a.order);
    expect((await photosOf(a.order)).length).toBe(2);
    // A merge done is done whoever asks again (a stale screen): the merged order, nothing moved twice.
    expect((await callAs(t.app, 'POST /lab-orders/merge', { body: { orders: [a.order, second] } }, { token: admin })).json().data.attributes.guid).toBe(a.order);
    // The other way round the first order is the one merged away: not found.
    expect((await callAs(t.app, 'POST /lab-orders/merge', { body: { orders: [second, a.order] } }, { token: admin })).status).toBe(404);
  });
});
