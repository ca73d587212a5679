import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders, photographs } from '../../server/db/schema.ts';
import { cartOrder } from './checkout-helpers.ts';
import { expectErrorBody, type TestApp } from './helper.ts';
import { callAs } from './photo-helpers.ts';
import { addPhotos, labWithAdmin, orderDetail, type Products } from './line-items-helpers.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';

/** Custom album orders (docs/orders.md §1, §3 Album): entered by the lab on an open order, read-only on its detail. */

let t: TestApp;
let p: Products;
let admin: string;
beforeAll(async () => {
  ({ t, p, admin } = await labWithAdmin());
});
afterAll(() => t.close());

type AlbumBody = InputOf<Contract['POST /lab_orders/:guid/album_line_items']>['body'];
const album = (photos: string[], extra: Partial<AlbumBody> = {}): AlbumBody => ({
  description: 'Wedding album, lay-flat',
  outer_fabric_name: 'Black linen',
  inner_fabric_name: 'Ivory',
  font: 'Garamond',
  spread_quantity: 15,
  stamping: 'Gold foil',
  upper_text_value: 'Ada & Grace',
  upper_text_font_size: 24,
  lower_text_value: 'June 2026',
  lower_text_font_size: 14,
  text_font: 'Garamond',
  text_color: 'Gold',
  total_price: '349.50',
  album_photos: photos,
  ...extra,
});

describe('album line items', () => {
  it('the lab adds an album from the order’s photos; its price joins the figures; both roles read it, in order', async () => {
    const o = await cartOrder(t, p);
    const photos = await addPhotos(t, o.order, 3);
    const before = await orderDetail(t, o.token, o.order);
    const res = await callAs(t.app, 'POST /lab_orders/:guid/album_line_items', { params: { guid: o.order }, body: album([photos[2] ?? '', photos[0] ?? '']) }, { token: admin });
    expect(res.status).toBe(201);
    expect(res.json().data).toMatchObject({ description: 'Wedding album, lay-flat', spread_quantity: 15, total_price: 349.5, stamping: 'Gold foil', upper_text_font_size: 24 });

    const after = await orderDetail(t, o.token, o.order);
    expect(after.album_line_items).toHaveLength(1);
    expect(after.album_line_items?.[0]?.album_photos.map((x) => x.photo_guid)).toEqual([photos[2], photos[0]]);
    expect(after.album_line_items?.[0]?.album_photos[0]?.photo_url).toMatch(/^\/|^http/);
    expect(after.subtotal).toBeCloseTo(before.subtotal + 349.5, 2);
    expect(after.total).toBeCloseTo(before.total + 349.5, 2);
    const forAdmin = await orderDetail(t, admin, o.order);
    expect(forAdmin.events?.[0]).toMatchObject({ kind: 'album', detail: 'Wedding album, lay-flat, 15 spreads, 2 photos' });
  });

  it('refuses photos of another order, a closed order, bad prices, and photographers; nothing is saved', async () => {
    const o = await cartOrder(t, p);
    const other = await cartOrder(t, p);
    const [mine = ''] = await addPhotos(t, o.order, 1);
    const [theirs = ''] = await addPhotos(t, other.order, 1);
    const cases: [AlbumBody, number, string][] = [
      [album([mine, theirs]), 422, 'Every album photo must be a photo of this order.'],
      [album([mine], { total_price: '12.345' }), 422, 'Enter the album price in dollars with at most 2 decimals.'],
      [album([mine], { spread_quantity: 0 }), 422, 'An album has 1 to 200 spreads.'],
      [album([]), 422, 'An album has at least one photo.'],
    ];
    for (const [body, status, message] of cases) {
      const res = await callAs(t.app, 'POST /lab_orders/:guid/album_line_items', { params: { guid: o.order }, body }, { token: admin });
      expect(res.status).toBe(status);
      expect(expectErrorBody(res.json(), status).message).toContain(message);
    }
    expect((await callAs(t.app, 'POST /lab_orders/:guid/album_line_items', { params: { guid: o.order }, body: album([mine]) }, { token: o.token })).status).toBe(403);
    expect((await callAs(t.app, 'PATCH /lab_orders/:guid', { params: { guid: o.order }, body: { type: 'status', value: 'paid' } }, { token: admin })).status).toBe(200);
    const closed = await callAs(t.app, 'POST /lab_orders/:guid/album_line_items', { params: { guid: o.order }, body: album([mine]) }, { token: admin });
    expect(closed.status).toBe(422);
    expect(expectErrorBody(closed.json(), 422).message).toBe('An album can be added only while the order is open.');
    expect((await orderDetail(t, admin, o.order)).album_line_items).toEqual([]);
  });

  it('a merge carries the second order’s album into the first, its photos pointing to the kept ones', async () => {
    const o = await cartOrder(t, p);
    const created = await callAs(t.app, 'POST /lab_orders', { body: { order_name: `Album order ${Math.random().toString(36).slice(2, 8)}` } }, { token: o.token });
    const second = created.json().data.attributes.guid;
    const [photo = ''] = await addPhotos(t, second, 1);
    // The same file in both orders (by checksum): the merge keeps the first order's.
    const [kept] = await t.db.select().from(photographs).innerJoin(labOrders, eq(labOrders.id, photographs.labOrderId)).where(eq(labOrders.guid, o.order));
    await t.db.update(photographs).set({ checksum: kept?.photographs.checksum ?? '' }).where(eq(photographs.guid, photo));
    expect((await callAs(t.app, 'POST /lab_orders/:guid/album_line_items', { params: { guid: second }, body: album([photo]) }, { token: admin })).status).toBe(201);
    const before = await orderDetail(t, admin, o.order);
    expect((await callAs(t.app, 'POST /lab-orders/merge', { body: { orders: [o.order, second] } }, { token: admin })).status).toBe(200);
    const merged = await orderDetail(t, admin, o.order);
    expect(merged.album_line_items).toHaveLength(1);
    expect(merged.album_line_items?.[0]?.album_photos.map((x) => x.photo_guid)).toEqual([kept?.photographs.guid]);
    expect(merged.total).toBeCloseTo(before.total + 349.5, 2);
  });
});
