import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses, labOrders } from '../../server/db/schema.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { addAddress, cartOrder } from './checkout-helpers.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { products, type Products } from './line-items-helpers.ts';
import { callAs } from './photo-helpers.ts';

/**
 * The admin panel's EDIT ADDRESS (docs/orders.md §6), through POST /addresses with lab_order_id and
 * update_address_on_order sent by an admin: the order's address only (the client's on a
 * drop-ship), recorded with who and when, nothing saved half-way.
 */

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

type AddressBody = InputOf<Contract['POST /addresses']>['body'];
const corrected = { recipient_name: 'Dorothea Lange', street_address: '12 Darkroom Lane', street_address_two: 'Suite 4', city: 'Memphis', state: 'TN', zip: '38103' };
/** The admin's EDIT ADDRESS (or a photographer's try at it, with their token) on that order. */
const editAddress = (order: string, body: Omit<AddressBody, 'lab_order_id' | 'update_address_on_order'> = corrected, token = adminToken) =>
  callAs(t.app, 'POST /addresses', { body: { ...body, lab_order_id: order, update_address_on_order: true } }, { token });
const detail = async (order: string, token = adminToken) => (await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: order } }, { token })).json().data.attributes;
const bookOf = (userGuid: string) => t.db.select().from(addresses).where(eq(addresses.userGuid, userGuid));
const paid = (order: string) => t.db.update(labOrders).set({ status: 'paid', paidAt: new Date() }).where(eq(labOrders.guid, order));

describe('an admin edits the shipping address of an order', () => {
  it('sets it on the paid order only, records who and when, and leaves every address book as it was', async () => {
    const o = await cartOrder(t, p);
    await addAddress(t, o.token, { lab_order_id: o.order, update_address_on_order: true });
    await paid(o.order);
    const before = await bookOf(o.user.guid);

    expect((await editAddress(o.order)).status).toBe(200);
    const after = await detail(o.order);
    expect(after.shipping_address).toMatchObject({ recipient: 'Dorothea Lange', street: '12 Darkroom Lane', street_2: 'Suite 4', city: 'Memphis', state_province: 'TN', zip: '38103' });
    expect(after.shipping_address?.guid).toMatch(/^[0-9a-f-]{36}$/);
    expect(after.events?.[0]).toMatchObject({
      kind: 'shipping_address',
      actor_guid: adminGuid,
      from: 'Dorothea Lange, 1 Main St, Nashville, TN 37201',
      to: 'Dorothea Lange, 12 Darkroom Lane, Suite 4, Memphis, TN 38103',
    });
    expect(Date.now() - Date.parse(after.events?.[0]?.created_at ?? '')).toBeLessThan(60_000);
    // Neither the photographer's book nor the admin's gained an address.
    expect(await bookOf(o.user.guid)).toEqual(before);
    expect(await bookOf(adminGuid)).toHaveLength(0);
    // The photographer sees the corrected address on their order.
    expect((await detail(o.order, o.token)).shipping_address?.street).toBe('12 Darkroom Lane');
  });

  it('refuses a bad address with the form’s words and changes nothing', async () => {
    const o = await cartOrder(t, p);
    await addAddress(t, o.token, { lab_order_id: o.order, update_address_on_order: true });
    const was = (await detail(o.order)).shipping_address;
    const cases: [typeof corrected, string][] = [
      [{ ...corrected, zip: '381' }, 'The zip code is 5 digits.'],
      [{ ...corrected, street_address: '  ' }, 'Enter the street address.'],
      [{ ...corrected, city: '' }, 'Enter the city.'],
      [{ ...corrected, state: '' }, 'Enter the state.'],
      [{ ...corrected, recipient_name: ' ' }, 'Enter the recipient’s name.'],
    ];
    for (const [body, message] of cases) {
      const res = await editAddress(o.order, body);
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toContain(message);
    }
    const now = await detail(o.order);
    expect(now.shipping_address).toEqual(was);
    expect(now.events?.filter((e) => e.kind === 'shipping_address')).toHaveLength(0);
  });

  it('is refused once the order has shipped, and while it is being paid', async () => {
    const o = await cartOrder(t, p);
    const shipped = await callAs(t.app, 'PATCH /lab_orders/:guid', { params: { guid: o.order }, body: { type: 'status', value: 'shipped', reason: 'Paid by other means' } }, { token: adminToken });
    expect(shipped.status).toBe(200);
    const res = await editAddress(o.order);
    expect(res.status).toBe(422);
    expect(expectErrorBody(res.json(), 422).message).toBe('The shipping address can no longer be changed: the order has shipped.');
    expect((await detail(o.order)).shipping_address).toBeNull();
  });

  it('a photographer cannot reach another photographer’s order this way; an open order keeps its figures', async () => {
    const o = await cartOrder(t, p);
    const other = await cartOrder(t, p);
    expect((await editAddress(o.order, corrected, other.token)).status).toBe(404);
    expect((await detail(o.order)).shipping_address).toBeNull();

    const figures = await detail(o.order);
    expect((await editAddress(o.order)).status).toBe(200);
    const now = await detail(o.order);
    expect(now.total).toBe(figures.total);
    // Checkout takes the corrected address as chosen (it has a guid).
    const touched = await callAs(t.app, 'PATCH /lab_orders/:guid', { params: { guid: o.order }, body: { type: 'updated_at', value: 'now' } }, { token: o.token });
    expect(touched.json().data.attributes.shipping_address?.street).toBe('12 Darkroom Lane');
  });
});

describe('on a drop-ship the parcel goes to the client', () => {
  const CLIENT = { recipient_name: 'Ansel Adams', street_address: '9 Half Dome Rd', city: 'Yosemite', state: 'CA', zip: '95389' };
  /** A paid drop-ship order that also has the studio's own address on it. */
  async function dropShipOrder() {
    const o = await cartOrder(t, p);
    await addAddress(t, o.token, { lab_order_id: o.order, update_address_on_order: true });
    expect((await callAs(t.app, 'PUT /lab_orders/:guid/drop_ship', { params: { guid: o.order }, body: CLIENT }, { token: o.token })).status).toBe(200);
    await paid(o.order);
    return o;
  }

  it("edits the client's address, not the studio's, and records it as the client's", async () => {
    const o = await dropShipOrder();
    const before = await detail(o.order);
    const book = await bookOf(o.user.guid);

    expect((await editAddress(o.order)).status).toBe(200);
    const after = await detail(o.order);
    expect(after.drop_ship_address).toEqual({ recipient: 'Dorothea Lange', street: '12 Darkroom Lane', street_2: 'Suite 4', city: 'Memphis', state_province: 'TN', zip: '38103' });
    // The studio's address is where it does not go: left as it was.
    expect(after.shipping_address).toEqual(before.shipping_address);
    expect(after.events?.[0]).toMatchObject({
      kind: 'client_address',
      actor_guid: adminGuid,
      from: 'Ansel Adams, 9 Half Dome Rd, Yosemite, CA 95389',
      to: 'Dorothea Lange, 12 Darkroom Lane, Suite 4, Memphis, TN 38103',
    });
    // Still the order's own: no one's book gained it.
    expect(await bookOf(o.user.guid)).toEqual(book);
    expect(await t.db.select().from(addresses)).not.toContainEqual(expect.objectContaining({ street: '12 Darkroom Lane', userGuid: adminGuid }));
    // The photographer sees where their client's parcel goes now.
    expect((await detail(o.order, o.token)).drop_ship_address?.street).toBe('12 Darkroom Lane');
  });

  it('with the same checks: a bad address or a shipped order changes nothing', async () => {
    const o = await dropShipOrder();
    const was = (await detail(o.order)).drop_ship_address;
    for (const [body, message] of [
      [{ ...corrected, zip: '381' }, 'The zip code is 5 digits.'],
      [{ ...corrected, recipient_name: ' ' }, 'Enter the recipient’s name.'],
    ] as const) {
      const res = await editAddress(o.order, body);
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toContain(message);
    }
    await t.db.update(labOrders).set({ status: 'shipped' }).where(eq(labOrders.guid, o.order));
    const late = await editAddress(o.order);
    expect(expectErrorBody(late.json(), 422).message).toBe('The shipping address can no longer be changed: the order has shipped.');
    const now = await detail(o.order);
    expect(now.drop_ship_address).toEqual(was);
    expect(now.events?.filter((e) => e.kind === 'client_address')).toHaveLength(0);
  });
});
