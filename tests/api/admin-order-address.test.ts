import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses, labOrders } from '../../server/db/schema.ts';
import { addAddress, cartOrder, change } from './checkout-helpers.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { products, send, type Products } from './line-items-helpers.ts';

/**
 * The admin panel's EDIT ADDRESS (docs/orders.md §6), through POST /addresses with lab_order_id and
 * update_address_on_order sent by an admin: the order's address only, recorded with who and when,
 * nothing saved half-way.
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

const corrected = { recipient_name: 'Dorothea Lange', street_address: '12 Darkroom Lane', street_address_two: 'Suite 4', city: 'Memphis', state: 'TN', zip: '38103' };
const detail = async (order: string) => (await send(t, 'GET', `/lab_orders/${order}`, adminToken)).json().data.attributes;
const bookOf = (userGuid: string) => t.db.select().from(addresses).where(eq(addresses.userGuid, userGuid));

describe('an admin edits the shipping address of an order', () => {
  it('sets it on the paid order only, records who and when, and leaves every address book as it was', async () => {
    const o = await cartOrder(t, p);
    await addAddress(t, o.token, { lab_order_id: o.order, update_address_on_order: true });
    await t.db.update(labOrders).set({ status: 'paid', paidAt: new Date() }).where(eq(labOrders.guid, o.order));
    const before = await bookOf(o.user.guid);

    const res = await send(t, 'POST', '/addresses', adminToken, { ...corrected, lab_order_id: o.order, update_address_on_order: true });
    expect(res.statusCode).toBe(200);
    const after = await detail(o.order);
    expect(after.shipping_address).toMatchObject({ recipient: 'Dorothea Lange', street: '12 Darkroom Lane', street_2: 'Suite 4', city: 'Memphis', state_province: 'TN', zip: '38103' });
    expect(after.shipping_address.guid).toMatch(/^[0-9a-f-]{36}$/);
    expect(after.events[0]).toMatchObject({
      kind: 'shipping_address',
      actor_guid: adminGuid,
      from: 'Dorothea Lange, 1 Main St, Nashville, TN 37201',
      to: 'Dorothea Lange, 12 Darkroom Lane, Suite 4, Memphis, TN 38103',
    });
    expect(Date.now() - Date.parse(after.events[0].created_at)).toBeLessThan(60_000);
    // Neither the photographer's book nor the admin's gained an address.
    expect(await bookOf(o.user.guid)).toEqual(before);
    expect(await bookOf(adminGuid)).toHaveLength(0);
    // The photographer sees the corrected address on their order.
    expect((await send(t, 'GET', `/lab_orders/${o.order}`, o.token)).json().data.attributes.shipping_address.street).toBe('12 Darkroom Lane');
  });

  it('refuses a bad address with the form’s words and changes nothing', async () => {
    const o = await cartOrder(t, p);
    await addAddress(t, o.token, { lab_order_id: o.order, update_address_on_order: true });
    const was = (await detail(o.order)).shipping_address;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...corrected, zip: '381' }, 'The zip code is 5 digits.'],
      [{ ...corrected, street_address: '  ' }, 'Enter the street address.'],
      [{ ...corrected, city: '' }, 'Enter the city.'],
      [{ ...corrected, state: '' }, 'Enter the state.'],
      [{ ...corrected, recipient_name: ' ' }, 'Enter the recipient’s name.'],
    ];
    for (const [body, message] of cases) {
      const res = await send(t, 'POST', '/addresses', adminToken, { ...body, lab_order_id: o.order, update_address_on_order: true });
      expect(res.statusCode).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toContain(message);
    }
    const now = await detail(o.order);
    expect(now.shipping_address).toEqual(was);
    expect(now.events.filter((e: { kind: string }) => e.kind === 'shipping_address')).toHaveLength(0);
  });

  it('is refused once the order has shipped, and while it is being paid', async () => {
    const o = await cartOrder(t, p);
    expect((await send(t, 'PATCH', `/lab_orders/${o.order}`, adminToken, { type: 'status', value: 'shipped', reason: 'Paid by other means' })).statusCode).toBe(200);
    const res = await send(t, 'POST', '/addresses', adminToken, { ...corrected, lab_order_id: o.order, update_address_on_order: true });
    expect(res.statusCode).toBe(422);
    expect(expectErrorBody(res.json(), 422).message).toBe('The shipping address can no longer be changed: the order has shipped.');
    expect((await detail(o.order)).shipping_address).toBeNull();
  });

  it('a photographer cannot reach another photographer’s order this way; an open order keeps its figures', async () => {
    const o = await cartOrder(t, p);
    const other = await cartOrder(t, p);
    const res = await send(t, 'POST', '/addresses', other.token, { ...corrected, lab_order_id: o.order, update_address_on_order: true });
    expect(res.statusCode).toBe(404);
    expect((await detail(o.order)).shipping_address).toBeNull();

    const figures = await detail(o.order);
    expect((await send(t, 'POST', '/addresses', adminToken, { ...corrected, lab_order_id: o.order, update_address_on_order: true })).statusCode).toBe(200);
    const now = await detail(o.order);
    expect(now.total).toBe(figures.total);
    // Checkout takes the corrected address as chosen (it has a guid).
    expect((await change(t, o.token, o.order, { type: 'updated_at', value: 'now' })).json().data.attributes.shipping_address?.street).toBe('12 Darkroom Lane');
  });
});
