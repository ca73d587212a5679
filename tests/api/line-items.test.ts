import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogues, labOrders, lineItems, papers, printSizes } from '../../server/db/schema.ts';
import { LINE_ITEM_CROP_QUEUE } from '../../server/services/line-item-crop.ts';
import { CART_NOT_OPEN } from '../../server/services/line-item-service.ts';
import { finishingChoiceCents } from '../../src/domain/catalogue.ts';
import { toCents, toDollars } from '../../src/domain/money.ts';
import { SHIPPING_CENTS } from '../../src/domain/pricing.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { callApi } from './contract-call.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { addItems, fullOrder, orderWithPhotos, payload, products, type LineItemBody, type Products } from './line-items-helpers.ts';
import { callAs, newKey } from './photo-helpers.ts';

/** The cart on the server (docs/api.md §9; docs/orders.md §5, §7). */
let t: TestApp;
let p: Products;
let frameCents: number;
beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'recorded' });
  p = await products(t);
  const [mat, glass, stain] = p.frameDetails;
  frameCents = finishingChoiceCents({ service: p.frame, details: { frame_mat: mat, glass, stain } });
});
afterAll(() => t.close());

const framed = (photo: string, extra: Record<string, unknown> = {}) =>
  payload(photo, p.size.guid, { finishing_service: p.frame.guid, finishing_service_detail: p.frameDetails[0] ?? null, finishing_service_details: p.frameDetails, ...extra });
type FullOrderQuery = InputOf<Contract['GET /lab_orders/:guid/retrieve_full_order']>['query'];
const add = (token: string, order: string, items: LineItemBody[], key?: string) => addItems(t, token, order, items, key);
const rowsOf = async (order: string) => {
  const [o] = await t.db.select().from(labOrders).where(eq(labOrders.guid, order));
  return t.db.select().from(lineItems).where(eq(lineItems.labOrderId, o?.id ?? 0));
};

describe('POST line items', () => {
  it('creates the batch under the client guids, priced from the catalogue whatever prices the client sends', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 2);
    const [a = '', b = ''] = photos;
    // Prices a client might send: none of them is read.
    const lying = { price: 0.01, subtotal: 0.01, totalPrice: 0.01, print_size_attributes: { price: 0 }, finishing_price: 0 };
    const items = [framed(a, { quantity: 2, notes: 'Warm tones please', ...lying }), payload(b, p.size.guid, { print_border: 'none', ...lying })];
    const res = await add(token, order, items);
    expect(res.status).toBe(201);
    const body = res.json();
    expect(body.data.map((i: { guid: string }) => i.guid)).toEqual(items.map((i) => i.guid));
    const [first, second] = body.data;
    if (!first || !second) throw new Error('expected the two line items');
    expect(first.print_size_attributes).toMatchObject({ paper: p.paper.name, print_size: p.size.name, print_size_guid: p.size.guid, price: p.size.price });
    expect(first.finishing_service).toMatchObject({
      finishing_category: 'hardwood_frame',
      finishing_service_guid: p.frame.guid,
      finishing_service_detail_guid: p.frameDetails[0],
      finishing_service_detail_two_guid: p.frameDetails[1],
      finishing_service_detail_three_guid: p.frameDetails[2],
      price: toDollars(frameCents),
    });
    expect(first.finishing_service?.formatted_detail_one).toBeTruthy();
    expect(first).toMatchObject({ quantity: 2, notes: 'Warm tones please', photograph_guid: a, photo_file_name: 'IMG_1000.jpg', photograph_cropped_url: null });
    expect(first.subtotal).toBe(toDollars((toCents(p.size.price) + frameCents) * 2));
    expect(second.finishing_service).toBeNull();
    expect(second.subtotal).toBe(p.size.price);
    const subtotalCents = (toCents(p.size.price) + frameCents) * 2 + toCents(p.size.price);
    expect(body.meta.order).toEqual({ subtotal: toDollars(subtotalCents), discount: 0, credit_applied: 0, shipping_total: toDollars(SHIPPING_CENTS), total: toDollars(subtotalCents + SHIPPING_CENTS) });

    const full = await fullOrder(t, token, order);
    expect(full.data.line_items.map((i) => i.guid)).toEqual(items.map((i) => i.guid));
    expect(full.data.attributes).toMatchObject({ guid: order, status: 'open', subtotal: toDollars(subtotalCents), total: toDollars(subtotalCents + SHIPPING_CENTS), notes: null });
    expect(full.meta).toMatchObject({ current_user_is_admin: false });
    // The order's own record (order detail) carries them too.
    const record = await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: order } }, { token });
    expect(record.json().data.attributes.line_items).toEqual(full.data.line_items);
    // Each new line item's cropped image is asked for.
    const asked = t.sentJobs.filter((j) => j.queue === LINE_ITEM_CROP_QUEUE).map((j) => (j.data as { lineItemGuid: string }).lineItemGuid);
    expect(asked).toEqual(expect.arrayContaining(items.map((i) => i.guid)));
  });

  it('a replayed Idempotency-Key and a guid already in the order create nothing twice', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const item = payload(photos[0] ?? '', p.size.guid, { quantity: 3 });
    const key = newKey();
    const first = await add(token, order, [item], key);
    expect(first.status).toBe(201);
    const again = await add(token, order, [item], key);
    expect(again.status).toBe(201);
    expect(again.json()).toEqual(first.json());
    // The outbox lost its key (a new one), same guid: the same item, not a duplicate nor a merge.
    const sameGuid = await add(token, order, [item]);
    expect(sameGuid.status).toBe(201);
    expect(sameGuid.json().data[0]).toMatchObject({ guid: item.guid, quantity: 3 });
    const rows = await rowsOf(order);
    expect(rows.map((r) => [r.guid, r.quantity])).toEqual([[item.guid, 3]]);
  });

  it('the merge rule: the same photo, print size and finishing raises the line by 1, not by the new quantity', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const photo = photos[0] ?? '';
    const first = framed(photo);
    expect((await add(token, order, [first])).status).toBe(201);
    // Border and details do not make another product (line-item-merge.ts sameProduct).
    const same = framed(photo, { quantity: 5, print_border: 'none', notes: 'other note' });
    const res = await add(token, order, [same]);
    expect(res.status).toBe(201);
    expect(res.json().data[0]).toMatchObject({ guid: first.guid, quantity: 2 });
    // The merged guid sent again (a new Idempotency-Key): the merge is not made twice.
    const resent = await add(token, order, [same]);
    expect(resent.json().data[0]).toMatchObject({ guid: first.guid, quantity: 2 });
    // Two of the same in one batch: one new line of 1, raised by the second to 2.
    const plainA = payload(photo, p.size.guid);
    const plainB = payload(photo, p.size.guid);
    const batch = await add(token, order, [plainA, plainB]);
    expect(batch.json().data.map((i: { guid: string; quantity: number }) => [i.guid, i.quantity])).toEqual([
      [plainA.guid, 2],
      [plainA.guid, 2],
    ]);
    const rows = await rowsOf(order);
    expect(rows.map((r) => [r.guid, r.quantity])).toEqual([
      [first.guid, 2],
      [plainA.guid, 2],
    ]);
    const full = await fullOrder(t, token, order);
    expect(full.data.attributes.subtotal).toBe(toDollars((toCents(p.size.price) + frameCents) * 2 + toCents(p.size.price) * 2));
  });

  it('two devices adding the same product at once end with one line of 2', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const [a, b] = await Promise.all([add(token, order, [payload(photos[0] ?? '', p.size.guid)]), add(token, order, [payload(photos[0] ?? '', p.size.guid)])]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await rowsOf(order)).map((r) => r.quantity)).toEqual([2]);
  });

  it('takes batches of 1 to 30', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 31);
    const items = photos.map((photo) => payload(photo, p.size.guid));
    const none = await add(token, order, []);
    expect(expectErrorBody(none.json(), 422).message).toBe('Send at least one line item.');
    const tooMany = await add(token, order, items);
    expect(expectErrorBody(tooMany.json(), 422).message).toBe('Send at most 30 line items at a time.');
    expect(await rowsOf(order)).toEqual([]);
    const thirty = await add(token, order, items.slice(0, 30));
    expect(thirty.status).toBe(201);
    expect(thirty.json().data).toHaveLength(30);
  });

  it('refuses a quantity outside 1..10000 with 400, and a bad crop or border with 422, saving nothing of the batch', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const photo = photos[0] ?? '';
    for (const quantity of [0, -1, 10_001, 1.5, '2', null]) {
      const res = await add(token, order, [payload(photo, p.size.guid), payload(photo, p.size.guid, { quantity: quantity as number })]);
      expect({ quantity, status: res.status }).toEqual({ quantity, status: 400 });
      expect(expectErrorBody(res.json(), 400).message).toBe('Quantity must be a whole number from 1 to 10000.');
    }
    const crop = { source_photograph_guid: photo, crop_x: 60, crop_y: 0, crop_w: 60, crop_h: 100, photo_meta: {} };
    const badCrop = await add(token, order, [payload(photo, p.size.guid, { photograph: crop })]);
    expect(expectErrorBody(badCrop.json(), 422).message).toBe('The crop must lie inside the photo (percent values from 0 to 100).');
    // A border the contract does not name: cast so the server's own check is what answers.
    const badBorder = await add(token, order, [payload(photo, p.size.guid, { print_border: 'seven' as 'none' })]);
    expect(badBorder.status).toBe(422);
    const noGuid = await add(token, order, [payload(photo, p.size.guid, { guid: 'not-a-guid' })]);
    expect(noGuid.status).toBe(422);
    expect(await rowsOf(order)).toEqual([]);
  });

  it('refuses a withdrawn or unknown product (ProductUnavailable), incomplete finishing, unfinished Brushed Canvas and a photo not in the order (PhotoMissing)', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const photo = photos[0] ?? '';
    // A print size of a retired catalogue: the lab no longer offers it.
    const [old] = await t.db.insert(catalogues).values({ name: 'Last year', active: false }).returning();
    const [oldPaper] = await t.db.insert(papers).values({ catalogueId: old?.id ?? 0, name: 'Old Lustre', position: 1 }).returning();
    const [oldSize] = await t.db.insert(printSizes).values({ paperGuid: oldPaper?.guid ?? '', name: '8x10', xAspect: 8, yAspect: 10, priceCents: 100, position: 1 }).returning();
    const cases: [string, LineItemBody, number, string][] = [
      ['withdrawn size', payload(photo, oldSize?.guid ?? ''), 422, 'ProductUnavailable'],
      ['unknown size', payload(photo, randomUUID()), 422, 'ProductUnavailable'],
      ['unknown finishing', payload(photo, p.size.guid, { finishing_service: randomUUID() }), 422, 'ProductUnavailable'],
      ['unknown detail', framed(photo, { finishing_service_details: [randomUUID()] }), 422, 'ProductUnavailable'],
      ['frame without stain', framed(photo, { finishing_service_details: p.frameDetails.slice(0, 2) }), 422, 'ValidationError'],
      ['Brushed Canvas unfinished', payload(photo, p.brushedCanvas), 422, 'ValidationError'],
      ['photo of no order', payload(randomUUID(), p.size.guid), 422, 'PhotoMissing'],
    ];
    for (const [name, item, status, className] of cases) {
      // Each after a valid item: the batch is refused whole.
      const res = await add(token, order, [payload(photo, p.size.guid), item]);
      expect({ name, status: res.status }).toEqual({ name, status });
      expect({ name, className: expectErrorBody(res.json(), status).class_name }).toEqual({ name, className });
    }
    expect(await rowsOf(order)).toEqual([]);
  });

  it("refuses another order's photo and a guid another order uses", async () => {
    const mine = await orderWithPhotos(t, 1);
    const theirs = await orderWithPhotos(t, 1);
    const res = await add(mine.token, mine.order, [payload(theirs.photos[0] ?? '', p.size.guid)]);
    expect(expectErrorBody(res.json(), 422).class_name).toBe('PhotoMissing');
    const taken = payload(theirs.photos[0] ?? '', p.size.guid);
    expect((await add(theirs.token, theirs.order, [taken])).status).toBe(201);
    const clash = await add(mine.token, mine.order, [payload(mine.photos[0] ?? '', p.size.guid, { guid: taken.guid })]);
    expect(clash.status).toBe(422);
    expect(await rowsOf(mine.order)).toEqual([]);
  });
});

describe('retrieve_full_order', () => {
  it('pages the line items on request, in the order they were added, with the cursor of the next page; unpaged it answers every one', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 5);
    const items = photos.map((photo) => payload(photo, p.size.guid));
    expect((await add(token, order, items)).status).toBe(201);
    const read = (query: FullOrderQuery) => callApi(t.app, 'GET /lab_orders/:guid/retrieve_full_order', { params: { guid: order }, query }, { token });
    const guids: string[] = [];
    let cursor: string | null | undefined = null;
    for (let page = 0; page < 3; page++) {
      const answer = await read({ line_items_per_page: '2', ...(cursor ? { line_items_cursor: cursor } : {}) });
      expect(answer.status).toBe(200);
      const body = answer.json();
      expect(body.data.line_items.length).toBe(page < 2 ? 2 : 1);
      // Every page carries the order and its figures.
      expect(body.data.attributes.subtotal).toBe(toDollars(5 * toCents(p.size.price)));
      guids.push(...body.data.line_items.map((l) => l.guid));
      cursor = body.meta.line_items_next_cursor;
    }
    expect(cursor).toBeNull();
    expect(guids).toEqual(items.map((i) => i.guid));
    const whole = (await read({})).json();
    expect(whole.data.line_items.map((l) => l.guid)).toEqual(guids);
    expect(whole.meta).not.toHaveProperty('line_items_next_cursor');
  });

  it('refuses a page size outside 1..500, a cursor without one, and a made-up cursor, with the error body (422)', async () => {
    const { token, order } = await orderWithPhotos(t, 1);
    const read = (query: FullOrderQuery) => callApi(t.app, 'GET /lab_orders/:guid/retrieve_full_order', { params: { guid: order }, query }, { token });
    for (const bad of ['0', '501', '2.5', 'many']) {
      const answer = await read({ line_items_per_page: bad });
      expect(expectErrorBody(answer.json(), 422).message).toContain('line_items_per_page must be a whole number from 1 to 500.');
    }
    expect(expectErrorBody((await read({ line_items_cursor: 'bGk6MQ' })).json(), 422).message).toBe('line_items_cursor needs line_items_per_page.');
    expect(expectErrorBody((await read({ line_items_per_page: '2', line_items_cursor: 'nonsense' })).json(), 422).message).toMatch(/not valid/);
  });
});

describe('changing line items', () => {
  it('PATCH prices the line item again and asks for a new cropped image when the crop changed', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const item = payload(photos[0] ?? '', p.size.guid);
    await add(token, order, [item]);
    const crop = { source_photograph_guid: photos[0], crop_x: 10, crop_y: 5, crop_w: 50.555, crop_h: 80, photo_meta: { aspect: 0.94 } };
    const res = await callAs(t.app, 'PATCH /lab_orders/:guid/line_items/:lineItemGuid', { params: { guid: order, lineItemGuid: item.guid }, body: { line_items: [framed(photos[0] ?? '', { guid: item.guid, quantity: 3, photograph: crop, price: 0 })] } }, { token });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.data).toMatchObject({ guid: item.guid, quantity: 3, photograph_attributes: { crop_x: 10, crop_y: 5, crop_w: 50.56, crop_h: 80, aspect: 0.94 } });
    expect(body.data.subtotal).toBe(toDollars((toCents(p.size.price) + frameCents) * 3));
    expect(body.meta.order.subtotal).toBe(body.data.subtotal);
    const jobs = t.sentJobs.filter((j) => j.queue === LINE_ITEM_CROP_QUEUE && (j.data as { lineItemGuid: string }).lineItemGuid === item.guid);
    expect(jobs.map((j) => j.data)).toEqual([
      { lineItemGuid: item.guid, cropVersion: 1 },
      { lineItemGuid: item.guid, cropVersion: 2 },
    ]);
    const missing = await callAs(t.app, 'PATCH /lab_orders/:guid/line_items/:lineItemGuid', { params: { guid: order, lineItemGuid: randomUUID() }, body: { line_items: [item] } }, { token });
    expect(expectErrorBody(missing.json(), 404).class_name).toBe('NotFound');
  });

  it('update_quantity takes both shapes of the spec, refuses a bad quantity with 400, and answers the whole order', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const item = payload(photos[0] ?? '', p.size.guid);
    await add(token, order, [item]);
    const a = await callAs(t.app, 'PATCH /line_items/:guid/update_quantity', { params: { guid: item.guid }, body: { line_items: [{ quantity: 4 }] } }, { token });
    expect(a.status).toBe(200);
    expect(a.json().data.line_items[0]?.quantity).toBe(4);
    expect(a.json().data.attributes.subtotal).toBe(toDollars(toCents(p.size.price) * 4));
    const b = await callAs(t.app, 'PATCH /line_items/:guid/update_quantity', { params: { guid: item.guid }, body: { qty: 7 } }, { token });
    expect(b.json().data.line_items[0]?.quantity).toBe(7);
    expect(b.json().data.attributes.total).toBe(toDollars(toCents(p.size.price) * 7 + SHIPPING_CENTS));
    for (const bad of [{ qty: 0 }, { qty: 10_001 }, { line_items: [{ quantity: 2.5 }] }, {}]) {
      const res = await callAs(t.app, 'PATCH /line_items/:guid/update_quantity', { params: { guid: item.guid }, body: bad }, { token });
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      expectErrorBody(res.json(), 400);
    }
    expect((await rowsOf(order))[0]?.quantity).toBe(7);
  });

  it('DELETE removes the line item and answers the order; a second DELETE is 404', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 2);
    const keep = payload(photos[0] ?? '', p.size.guid);
    const drop = framed(photos[1] ?? '');
    await add(token, order, [keep, drop]);
    const res = await callAs(t.app, 'DELETE /line_items/:guid', { params: { guid: drop.guid } }, { token });
    expect(res.status).toBe(200);
    expect(res.json().data.line_items.map((i) => i.guid)).toEqual([keep.guid]);
    expect(res.json().data.attributes.subtotal).toBe(p.size.price);
    const again = await callAs(t.app, 'DELETE /line_items/:guid', { params: { guid: drop.guid } }, { token });
    expect(expectErrorBody(again.json(), 404).class_name).toBe('NotFound');
    // An empty cart owes nothing, not even shipping.
    const last = await callAs(t.app, 'DELETE /line_items/:guid', { params: { guid: keep.guid } }, { token });
    expect(last.json().data.line_items).toEqual([]);
    expect(last.json().data.attributes).toMatchObject({ subtotal: 0, discount: 0, credit_applied: 0, shipping_total: 0, total: 0 });
  });

  it("PATCH /lab_orders/{id} updated_at 'now' marks the order changed; other types are refused", async () => {
    const { token, order } = await orderWithPhotos(t, 0);
    const before = (await fullOrder(t, token, order)).data.attributes.updated_at as string;
    // The clock (the database's too) has moved past the order's time, to the millisecond the answer shows.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(Date.parse(before)));
    const res = await callAs(t.app, 'PATCH /lab_orders/:guid', { params: { guid: order }, body: { type: 'updated_at', value: 'now' } }, { token });
    expect(res.status).toBe(200);
    expect(Date.parse(res.json().data.attributes.updated_at)).toBeGreaterThan(Date.parse(before));
    const other = await callAs(t.app, 'PATCH /lab_orders/:guid', { params: { guid: order }, body: { type: 'gift_wrap', value: 'yes' } }, { token });
    expect(expectErrorBody(other.json(), 422).class_name).toBe('ValidationError');
    // status is the lab's (an admin type, issue 13).
    expect((await callAs(t.app, 'PATCH /lab_orders/:guid', { params: { guid: order }, body: { type: 'status', value: 'shipped' } }, { token })).status).toBe(403);
    expect((await fullOrder(t, token, order)).data.attributes.status).toBe('open');
  });
});

describe('who may change a cart', () => {
  it('an order that is no longer open refuses every change with 409 OrderNotOpen', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const item = payload(photos[0] ?? '', p.size.guid);
    await add(token, order, [item]);
    await t.db.update(labOrders).set({ status: 'paid' }).where(eq(labOrders.guid, order));
    const calls = [
      await add(token, order, [payload(photos[0] ?? '', p.size.guid)]),
      await callAs(t.app, 'PATCH /lab_orders/:guid/line_items/:lineItemGuid', { params: { guid: order, lineItemGuid: item.guid }, body: { line_items: [item] } }, { token }),
      await callAs(t.app, 'PATCH /line_items/:guid/update_quantity', { params: { guid: item.guid }, body: { qty: 2 } }, { token }),
      await callAs(t.app, 'DELETE /line_items/:guid', { params: { guid: item.guid } }, { token }),
    ];
    for (const res of calls) {
      expect(res.status).toBe(409);
      expect(expectErrorBody(res.json(), 409)).toMatchObject({ class_name: 'OrderNotOpen', message: CART_NOT_OPEN });
    }
    expect((await rowsOf(order)).map((r) => r.quantity)).toEqual([1]);
    // Still readable.
    expect((await fullOrder(t, token, order)).data.line_items).toHaveLength(1);
  });

  it("another photographer's order and line items are 404; without a session 401", async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const item = payload(photos[0] ?? '', p.size.guid);
    await add(token, order, [item]);
    const { user, password } = await createUser(t.db);
    const other = await signIn(t.app, user.email, password);
    for (const who of [other, null]) {
      const calls = [
        await callApi(t.app, 'GET /lab_orders/:guid/retrieve_full_order', { params: { guid: order }, query: {} }, { token: who ?? '' }),
        await add(who ?? '', order, [payload(photos[0] ?? '', p.size.guid)]),
        await callAs(t.app, 'PATCH /lab_orders/:guid/line_items/:lineItemGuid', { params: { guid: order, lineItemGuid: item.guid }, body: { line_items: [item] } }, { token: who ?? '' }),
        await callAs(t.app, 'PATCH /line_items/:guid/update_quantity', { params: { guid: item.guid }, body: { qty: 2 } }, { token: who ?? '' }),
        await callAs(t.app, 'DELETE /line_items/:guid', { params: { guid: item.guid } }, { token: who ?? '' }),
        await callAs(t.app, 'PATCH /lab_orders/:guid', { params: { guid: order }, body: { type: 'updated_at', value: 'now' } }, { token: who ?? '' }),
      ];
      for (const res of calls) expectErrorBody(res.json(), who ? 404 : 401);
    }
    expect((await rowsOf(order)).map((r) => r.quantity)).toEqual([1]);
  });

  it('an admin may act on any order', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const { user, password } = await createUser(t.db, { isAdmin: true });
    const admin = await signIn(t.app, user.email, password);
    const item = payload(photos[0] ?? '', p.size.guid);
    expect((await add(admin, order, [item])).status).toBe(201);
    expect((await callAs(t.app, 'PATCH /line_items/:guid/update_quantity', { params: { guid: item.guid }, body: { qty: 2 } }, { token: admin })).status).toBe(200);
    const full = await callApi(t.app, 'GET /lab_orders/:guid/retrieve_full_order', { params: { guid: order }, query: {} }, { token: admin });
    expect(full.json().meta.current_user_is_admin).toBe(true);
    expect(full.json().data.line_items[0]).toMatchObject({ guid: item.guid, quantity: 2 });
    expect((await callAs(t.app, 'DELETE /line_items/:guid', { params: { guid: item.guid } }, { token: admin })).status).toBe(200);
    expect((await fullOrder(t, token, order)).data.line_items).toEqual([]);
  });
});
