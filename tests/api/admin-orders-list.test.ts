import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders, lineItems } from '../../server/db/schema.ts';
import { recordEvent } from '../../server/services/order-events.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';
import { addItems, addPhotos, orderDetail, orderWithPhotos, payload, products, type Products } from './line-items-helpers.ts';
import { callAs, newOrder } from './photo-helpers.ts';

/** The orders list and order detail of issue 13 (docs/api.md §6): list fields, admin filters, urgent, events. */

let t: TestApp;
let p: Products;
let adminToken: string;
let adminGuid: string;
// Ann: a framed order (paid) and a plain-prints order (open, urgent, with notes); Bob: one open order.
let ann: { token: string; guid: string; framed: string; plain: string };
let bob: { token: string; order: string };

type ListQuery = InputOf<Contract['GET /lab_orders']>['query'];
const listAnswer = (token: string, query: ListQuery) => callApi(t.app, 'GET /lab_orders', { query }, { token });
const list = async (token: string, query: ListQuery = {}) => {
  const res = await listAnswer(token, query);
  expect(res.status).toBe(200);
  return res.json();
};
const ok = (done: boolean, what: string) => {
  if (!done) throw new Error(`setup failed: ${what}`);
};
const names = (answer: { data: { attributes: { order_name: string } }[] }) => answer.data.map((d) => d.attributes.order_name).sort();

beforeAll(async () => {
  t = await createTestApp();
  p = await products(t);
  const admin = await createUser(t.db, { isAdmin: true, firstName: 'Lab' });
  adminGuid = admin.user.guid;
  adminToken = await signIn(t.app, admin.user.email, admin.password);

  const a = await orderWithPhotos(t, 2);
  const framedItem = payload(a.photos[0] ?? '', p.size.guid, { finishing_service: p.frame.guid, finishing_service_detail: p.frameDetails[0] ?? null, finishing_service_details: p.frameDetails });
  ok((await addItems(t, a.token, a.order, [framedItem])).status === 201, 'framed line item');
  await t.db.update(labOrders).set({ status: 'paid', paidAt: new Date(), orderName: 'Framed' }).where(eq(labOrders.guid, a.order));
  const plain = await newOrder(t, a.token, 'Plain');
  const [photo] = await addPhotos(t, plain, 1);
  ok((await addItems(t, a.token, plain, [payload(photo ?? '', p.size.guid)])).status === 201, 'plain line item');
  await t.db.update(labOrders).set({ urgent: true, notes: 'Rush please', internalNotes: 'Call her' }).where(eq(labOrders.guid, plain));
  ann = { token: a.token, guid: a.user.guid, framed: a.order, plain };

  const b = await orderWithPhotos(t, 0);
  await t.db.update(labOrders).set({ orderName: 'Bob open' }).where(eq(labOrders.guid, b.order));
  bob = { token: b.token, order: b.order };
  // The admin's own order, for HIDE MY ORDERS.
  ok((await callAs(t.app, 'POST /lab_orders', { body: { order_name: 'Lab test' } }, { token: adminToken })).status === 201, "the admin's order");
});
afterAll(() => t.close());

describe('GET /lab_orders list fields', () => {
  it('shows the indicators, notes, shipping, total, cover photo and line-item count on each card', async () => {
    const all = await list(adminToken);
    const byName = new Map(all.data.map((d) => [d.attributes.order_name, d.attributes]));
    expect(byName.get('Framed')).toMatchObject({ has_frame: true, has_mount: false, has_mat: false, has_canvas: false, line_item_count: 1, urgent: false, has_notes: false, color_correction: 'lab', shipping_method: 'standard', tracking_url: null });
    expect(byName.get('Framed')?.cover_photo_url).toMatch(/^http|^\//);
    expect(byName.get('Plain')).toMatchObject({ has_frame: false, urgent: true, has_notes: true, has_admin_notes: true, line_item_count: 1 });
    expect(byName.get('Bob open')).toMatchObject({ cover_photo_url: null, line_item_count: 0, total: 0 });
    expect(all.meta.urgent_count).toBe(1);
  });

  it('hides the admin notes flag from the photographer', async () => {
    const mine = await list(ann.token);
    expect(names(mine)).toEqual(['Framed', 'Plain']);
    expect(mine.data.find((d) => d.attributes.order_name === 'Plain')?.attributes).toMatchObject({ has_notes: true, has_admin_notes: false, download_all_link: null });
    expect(mine.meta.urgent_count).toBe(1);
    // Counted with the total when the list has more pages, and on a later page.
    const first = await list(ann.token, { per_page: '1' });
    expect(first.meta.urgent_count).toBe(1);
    expect((await list(ann.token, { per_page: '1', cursor: String(first.meta.next_cursor) })).meta.urgent_count).toBe(1);
    expect((await list(ann.token, { search: 'zzz' })).meta.urgent_count).toBe(1);
    expect((await list(bob.token)).meta.urgent_count).toBe(0);
  });

  it('keeps the has_* flags and count when line items change', async () => {
    const before = (await list(adminToken, { filters: 'frame' })).data.map((d) => d.attributes.guid);
    expect(before).toEqual([ann.framed]);
    const [order] = await t.db.select().from(labOrders).where(eq(labOrders.guid, ann.framed));
    await t.db.delete(lineItems).where(eq(lineItems.labOrderId, order?.id ?? 0));
    const [after] = await t.db.select().from(labOrders).where(eq(labOrders.guid, ann.framed));
    expect(after).toMatchObject({ hasFrame: false, hasPrints: false, lineItemCount: 0 });
    // Put back for the other tests (as the builder would).
    await t.db.update(labOrders).set({ status: 'open' }).where(eq(labOrders.id, order?.id ?? 0));
    const photo = (await orderDetail(t, ann.token, ann.framed)).images[0]?.guid ?? '';
    const framedItem = payload(photo, p.size.guid, { finishing_service: p.frame.guid, finishing_service_detail: p.frameDetails[0] ?? null, finishing_service_details: p.frameDetails });
    expect((await addItems(t, ann.token, ann.framed, [framedItem])).status).toBe(201);
    await t.db.update(labOrders).set({ status: 'paid' }).where(eq(labOrders.id, order?.id ?? 0));
    expect((await list(adminToken, { filters: 'frame' })).data.map((d) => d.attributes.guid)).toEqual([ann.framed]);
  });
});

describe('GET /lab_orders admin filters', () => {
  it('AND-combines the filters', async () => {
    expect(names(await list(adminToken, { filters: 'frame' }))).toEqual(['Framed']);
    expect(names(await list(adminToken, { filters: 'prints' }))).toEqual(['Plain']);
    expect(names(await list(adminToken, { filters: 'hide_open' }))).toEqual(['Framed']);
    expect(names(await list(adminToken, { filters: 'hide_mine' }))).toEqual(['Bob open', 'Framed', 'Plain']);
    expect(names(await list(adminToken, { filters: 'hide_open,hide_mine,frame' }))).toEqual(['Framed']);
    expect(names(await list(adminToken, { filters: 'frame,prints' }))).toEqual([]);
    expect((await list(adminToken, { filters: 'mat,mount,canvas,api_order,test_print,boutique' })).data).toEqual([]);
    expect((await list(adminToken, { filters: 'prints' })).meta.total).toBe(1);
  });

  it('limits the list to one photographer, and to the urgent orders', async () => {
    expect(names(await list(adminToken, { photographer_id: ann.guid }))).toEqual(['Framed', 'Plain']);
    expect(names(await list(adminToken, { urgent: 'true' }))).toEqual(['Plain']);
    expect(names(await list(adminToken, { urgent: 'true', photographer_id: bob.order.replace(/./, '0') }))).toEqual([]);
    expect(names(await list(adminToken, { urgent: 'true', search: 'plain' }))).toEqual(['Plain']);
  });

  it('ignores the admin filters for a photographer', async () => {
    expect(names(await list(ann.token, { filters: 'frame', urgent: 'true' }))).toEqual(['Framed', 'Plain']);
    expect(names(await list(bob.token, { photographer_id: ann.guid }))).toEqual(['Bob open']);
  });

  it('refuses an unknown filter with the list of filters', async () => {
    const res = await listAnswer(adminToken, { filters: 'frame,gold' });
    expect([400, 422]).toContain(res.status);
    expect(expectErrorBody(res.json(), res.status).message).toContain('filters is a comma list of: mat, mount');
    // A value the contract does not allow, as a hand-typed address would carry it.
    expect((await listAnswer(adminToken, { urgent: 'maybe' } as unknown as ListQuery)).status).toBe(422);
  });
});

describe('GET /lab_orders/:guid admin fields', () => {
  it('gives an admin the notes, events, refunds and photographer; the photographer none of them', async () => {
    const [order] = await t.db.select().from(labOrders).where(eq(labOrders.guid, ann.plain));
    await recordEvent(t.db, order?.id ?? 0, adminGuid, 'urgent', { from: 'false', to: 'true' });
    await recordEvent(t.db, order?.id ?? 0, adminGuid, 'internal_notes', { to: 'Call her' });
    const asAdmin = await orderDetail(t, adminToken, ann.plain);
    expect(asAdmin).toMatchObject({ internal_notes: 'Call her', refunds: [], refund_amount: 0, download_all_link: null, last_sent_to_vendor_at: null, urgent: true, color_correction: 'lab' });
    expect(asAdmin.photographer).toMatchObject({ guid: ann.guid });
    expect(asAdmin.events?.map((e) => e.kind)).toEqual(['internal_notes', 'urgent']);
    expect(asAdmin.events?.[1]).toMatchObject({ actor_guid: adminGuid, actor_name: expect.stringContaining('Lab'), from: 'false', to: 'true' });

    const asOwner = await orderDetail(t, ann.token, ann.plain);
    expect(asOwner).toMatchObject({ notes: 'Rush please', urgent: true, has_admin_notes: false });
    for (const field of ['internal_notes', 'events', 'refunds', 'photographer', 'last_sent_to_vendor_at']) expect(asOwner).not.toHaveProperty(field);
  });
});
