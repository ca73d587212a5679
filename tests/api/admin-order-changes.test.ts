import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders, lineItems, mailOutbox, orderEvents, photographs } from '../../server/db/schema.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { change, type OrderChange } from './checkout-helpers.ts';
import { callApi } from './contract-call.ts';
import { addItems, orderDetail, orderWithPhotos, payload, products, type Products } from './line-items-helpers.ts';
import { callAs } from './photo-helpers.ts';

/** PATCH /lab_orders/{id} admin types and color_correction, DELETE /lab_orders/{id} (docs/api.md §6). */

let t: TestApp;
let p: Products;
let adminToken: string;
let adminGuid: string;

beforeAll(async () => {
  t = await createTestApp();
  p = await products(t);
  const admin = await createUser(t.db, { isAdmin: true });
  adminGuid = admin.user.guid;
  adminToken = await signIn(t.app, admin.user.email, admin.password);
});
afterAll(() => t.close());

/** A photographer's open order with one line item. */
async function order() {
  const o = await orderWithPhotos(t, 1);
  expect((await addItems(t, o.token, o.order, [payload(o.photos[0] ?? '', p.size.guid)])).status).toBe(201);
  return o;
}
const patch = (token: string, guid: string, body: OrderChange) => change(t, token, guid, body);
const remove = (token: string, guid: string) => callAs(t.app, 'DELETE /lab_orders/:guid', { params: { guid } }, { token });
const eventsOf = async (guid: string) => {
  const [row] = await t.db.select({ id: labOrders.id }).from(labOrders).where(eq(labOrders.guid, guid));
  return t.db.select().from(orderEvents).where(eq(orderEvents.labOrderId, row?.id ?? 0)).orderBy(orderEvents.id);
};

describe('PATCH /lab_orders/{id} admin types', () => {
  it('changes status any to any, records each change, and mails the tracking link when shipped', async () => {
    const o = await order();
    const tracking = 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000';
    expect((await patch(adminToken, o.order, { type: 'tracking_url', value: tracking })).json().data.attributes.tracking_url).toBe(tracking);
    for (const status of ['paid', 'printing', 'framing', 'shipped']) {
      const res = await patch(adminToken, o.order, { type: 'status', value: status });
      expect(res.status).toBe(200);
      expect(res.json().data.attributes.status).toBe(status);
    }
    const shipped = await orderDetail(t, adminToken, o.order);
    expect(shipped.shipped_at).not.toBeNull();
    expect(shipped.paid_at).not.toBeNull();
    expect(shipped.events?.map((e) => `${e.kind}:${e.to}`)).toEqual(['status:shipped', 'status:framing', 'status:printing', 'status:paid', `tracking_url:${tracking}`]);
    expect(shipped.events?.[0]).toMatchObject({ actor_guid: adminGuid, from: 'framing' });

    const mails = await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, o.user.email)));
    const mail = mails.find((m) => m.subject.includes('has shipped'));
    expect(mail?.bodyText).toContain(tracking);
    expect(t.printed.join('\n')).toContain(tracking);
    // Back to open (the spec: any status to any) is allowed and recorded.
    expect((await patch(adminToken, o.order, { type: 'status', value: 'open' })).json().data.attributes.status).toBe('open');
    expect((await eventsOf(o.order)).at(-1)).toMatchObject({ kind: 'status', fromValue: 'shipped', toValue: 'open' });
  });

  it('moves an unpaid order to printing, framing or shipped only with a reason, kept in the history', async () => {
    const o = await order();
    for (const status of ['printing', 'framing', 'shipped']) {
      const refused = await patch(adminToken, o.order, { type: 'status', value: status });
      expect(refused.status).toBe(422);
      expect(expectErrorBody(refused.json(), 422).message).toBe(
        `This order is not paid yet. To move it to ${status} anyway, give the reason (for example "paid by other means" or "test print"); it is recorded in the history.`,
      );
      expect((await patch(adminToken, o.order, { type: 'status', value: status, reason: '   ' })).status).toBe(422);
    }
    expect((await patch(adminToken, o.order, { type: 'status', value: 'printing', reason: 'x'.repeat(301) })).status).toBe(422);
    expect((await eventsOf(o.order)).filter((e) => e.kind === 'status')).toEqual([]);

    const moved = await patch(adminToken, o.order, { type: 'status', value: 'printing', reason: ' Test print ' });
    expect(moved.status).toBe(200);
    expect(moved.json().data.attributes.status).toBe('printing');
    expect((await eventsOf(o.order)).at(-1)).toMatchObject({ kind: 'status', fromValue: 'open', toValue: 'printing', detail: 'Test print' });
    // Still unpaid: each further step of the lab's work asks again. Cancelled or open needs none.
    expect((await patch(adminToken, o.order, { type: 'status', value: 'shipped' })).status).toBe(422);
    expect((await patch(adminToken, o.order, { type: 'status', value: 'cancelled' })).status).toBe(200);
    // A paid order needs no reason.
    const paid = await order();
    expect((await patch(adminToken, paid.order, { type: 'status', value: 'paid' })).status).toBe(200);
    expect((await patch(adminToken, paid.order, { type: 'status', value: 'printing' })).status).toBe(200);
  });

  it('sets the admin note, urgent and tracking, refusing what breaks their rules', async () => {
    const o = await order();
    const noted = await patch(adminToken, o.order, { type: 'internal_notes', value: 'Reprint the third one' });
    expect(noted.json().data.attributes.internal_notes).toBe('Reprint the third one');
    const urgent = await patch(adminToken, o.order, { type: 'urgent', value: true });
    expect(urgent.json().data.attributes.urgent).toBe(true);
    expect((await patch(adminToken, o.order, { type: 'urgent', value: 'false' })).json().data.attributes.urgent).toBe(false);
    expect((await eventsOf(o.order)).map((e) => e.kind)).toEqual(['internal_notes', 'urgent', 'urgent']);

    const refusals: [OrderChange, string][] = [
      [{ type: 'status', value: 'lost' }, 'status is one of open, paid, printing, framing, shipped, cancelled.'],
      [{ type: 'tracking_url', value: 'javascript:alert(1)' }, 'The tracking URL must be an http or https address of at most 500 characters.'],
      [{ type: 'tracking_url', value: `https://x.example/${'a'.repeat(500)}` }, 'The tracking URL must be an http or https address of at most 500 characters.'],
      [{ type: 'internal_notes', value: 'x'.repeat(5001) }, 'The admin note can be at most 5000 characters.'],
      [{ type: 'urgent', value: 'soon' }, 'urgent takes true or false.'],
    ];
    for (const [body, message] of refusals) {
      const res = await patch(adminToken, o.order, body);
      expect([400, 422]).toContain(res.status);
      expect(expectErrorBody(res.json(), res.status).message).toBe(message);
    }
    expect((await eventsOf(o.order)).length).toBe(3);
  });

  it('answers 403 to a photographer for the admin types, on their own order, and changes nothing', async () => {
    const o = await order();
    for (const body of [{ type: 'status', value: 'shipped' }, { type: 'urgent', value: true }, { type: 'internal_notes', value: 'x' }, { type: 'tracking_url', value: 'https://a.example' }]) {
      const res = await patch(o.token, o.order, body);
      expect(res.status).toBe(403);
      expectErrorBody(res.json(), 403);
    }
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    expect(row).toMatchObject({ status: 'open', urgent: false, internalNotes: null, trackingUrl: null });
    const other = await order();
    expect((await patch(other.token, o.order, { type: 'color_correction', value: 'as_is' })).status).toBe(404);
  });
});

describe('PATCH /lab_orders/{id} color_correction', () => {
  it('lets the photographer choose while open, shown to the lab; refused once paid', async () => {
    const o = await order();
    const res = await patch(o.token, o.order, { type: 'color_correction', value: 'as_is' });
    expect(res.status).toBe(200);
    expect(res.json().data.attributes.color_correction).toBe('as_is');
    const asAdmin = await orderDetail(t, adminToken, o.order);
    expect(asAdmin.color_correction).toBe('as_is');
    expect(asAdmin.events?.[0]).toMatchObject({ kind: 'color_correction', from: 'lab', to: 'as_is' });
    expect((await patch(o.token, o.order, { type: 'color_correction', value: 'vivid' })).status).toBe(422);
    await t.db.update(labOrders).set({ status: 'paid' }).where(eq(labOrders.guid, o.order));
    expect((await patch(o.token, o.order, { type: 'color_correction', value: 'lab' })).status).toBe(422);
  });
});

describe('DELETE /lab_orders/{id}', () => {
  it('deletes an open order with its photos, line items and stored originals', async () => {
    const o = await order();
    const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
    const [photo] = await t.db.select().from(photographs).where(eq(photographs.labOrderId, row?.id ?? 0));
    expect(await t.storage.head(photo?.key ?? '')).not.toBeNull();
    const res = await remove(o.token, o.order);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order))).toEqual([]);
    expect(await t.db.select().from(lineItems).where(eq(lineItems.labOrderId, row?.id ?? 0))).toEqual([]);
    expect(await t.storage.head(photo?.key ?? '')).toBeNull();
    expect((await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: o.order } }, { token: o.token })).status).toBe(404);
  });

  it('lets an admin delete any open order; no one deletes a paid one or another photographer’s', async () => {
    const o = await order();
    const other = await order();
    expect((await remove(other.token, o.order)).status).toBe(404);
    await t.db.update(labOrders).set({ status: 'paid' }).where(eq(labOrders.guid, o.order));
    const paid = await remove(o.token, o.order);
    expect(paid.status).toBe(422);
    expect(expectErrorBody(paid.json(), 422).message).toBe('Only open orders can be deleted.');
    expect((await remove(adminToken, o.order)).status).toBe(422);
    expect((await remove(adminToken, other.order)).status).toBe(200);
  });
});
