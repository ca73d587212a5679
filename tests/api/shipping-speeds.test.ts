import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogueFile } from '../../server/catalogue/catalogue-file.ts';
import { defaultCatalogue } from '../../server/catalogue/default-catalogue.ts';
import { loadCatalogue } from '../../server/catalogue/load-catalogue.ts';
import { addresses, sandboxCharges } from '../../server/db/schema.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { toCents, toDollars } from '../../src/domain/money.ts';
import { NOT_READY } from '../../server/services/checkout-payment.ts';
import { SHIPPING_METHOD_RULE } from '../../server/services/order-changes.ts';
import { addBusinessDays } from '../../src/domain/ship-dates.ts';
import { addCard, cartOrder, change, changed, checkoutOrder, readyOrder, type OrderChange } from './checkout-helpers.ts';
import { callApi } from './contract-call.ts';
import { callAs } from './photo-helpers.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { products, type Products } from './line-items-helpers.ts';

/** Shipping speeds, drop-ship to the photographer's client and the all-in cost (issue 34). */
let t: TestApp;
let p: Products;
beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'recorded' });
  p = await products(t);
});
afterAll(() => t.close());

// The default catalogue's prices (server/catalogue/default-catalogue.ts), in cents.
const SPEEDS = { standard: 1000, two_day: 2400, overnight: 3900 };
const DROP_SHIP_FEE = 500;

const CLIENT = { recipient_name: 'Ansel Adams', street_address: '9 Half Dome Rd', street_address_two: 'Cabin 2', city: 'Yosemite', state: 'CA', zip: '95389' };
type ClientBody = InputOf<Contract['PUT /lab_orders/:guid/drop_ship']>['body'];
const dropShip = (token: string, order: string, body: ClientBody = CLIENT) => callApi(t.app, 'PUT /lab_orders/:guid/drop_ship', { params: { guid: order }, body }, { token });
const noDropShip = (token: string, order: string) => callApi(t.app, 'DELETE /lab_orders/:guid/drop_ship', { params: { guid: order } }, { token });
const settings = async () => (await callApi(t.app, 'GET /calculator_catalogue', {})).json().settings;

describe('shipping speeds', () => {
  it('the catalogue carries each speed’s price and the drop-ship fee, so the client shows them offline', async () => {
    expect(await settings()).toMatchObject({ order_minimum: 0, shipping_speeds: { standard: 10, two_day: 24, overnight: 39 }, drop_ship_fee: 5 });
  });

  it('an order ships standard at $10; overnight and two-day are priced by the server; local pickup is free and has no speed', async () => {
    const o = await cartOrder(t, p);
    expect(await checkoutOrder(t, o.token, o.order)).toMatchObject({ shipping_method: 'standard', shipping_total: 10, total: toDollars(o.subtotalCents + SPEEDS.standard) });
    // Figures sent by the client are not read (the contract does not take them: cast as a tampered client's).
    const overnight = await changed(t, o.token, o.order, { type: 'shipping_method', value: 'overnight', shipping_total: 0, total: 1 } as OrderChange);
    expect(overnight).toMatchObject({ shipping_method: 'overnight', shipping_total: 39, total: toDollars(o.subtotalCents + SPEEDS.overnight) });
    expect(await changed(t, o.token, o.order, { type: 'shipping_method', value: 'two_day' })).toMatchObject({ shipping_method: 'two_day', shipping_total: 24 });
    expect(await changed(t, o.token, o.order, { type: 'local_pickup', value: true })).toMatchObject({ shipping_method: 'local_pickup', shipping_total: 0, total: toDollars(o.subtotalCents) });
    // A speed is a way to ship: choosing one ends the pickup.
    expect(await changed(t, o.token, o.order, { type: 'shipping_method', value: 'overnight' })).toMatchObject({ local_pickup: false, shipping_method: 'overnight', shipping_total: 39 });
    // The list and the order record say the real speed too.
    const list = await callApi(t.app, 'GET /lab_orders', { query: {} }, { token: o.token });
    expect(list.json().data.find((d) => d.attributes.guid === o.order)?.attributes.shipping_method).toBe('overnight');
    // The ship dates follow the speed: overnight arrives the next business day after shipping.
    const shipDates = async () => (await callApi(t.app, 'GET /lab_orders/:guid/retrieve_full_order', { params: { guid: o.order }, query: {} }, { token: o.token })).json().data.attributes.ship_dates;
    const night = await shipDates();
    expect(night).toMatchObject({ arrives_from: addBusinessDays(night?.ship_by ?? '', 1), arrives_to: addBusinessDays(night?.ship_by ?? '', 1) });
    await changed(t, o.token, o.order, { type: 'shipping_method', value: 'standard' });
    const ground = await shipDates();
    expect(ground).toMatchObject({ arrives_from: addBusinessDays(ground?.ship_by ?? '', 1), arrives_to: addBusinessDays(ground?.ship_by ?? '', 5) });
  });

  it('refuses a speed the lab does not offer, and another photographer’s order', async () => {
    const o = await cartOrder(t, p);
    for (const value of ['rocket', '', 'OVERNIGHT', 42]) {
      const res = await change(t, o.token, o.order, { type: 'shipping_method', value });
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toBe(SHIPPING_METHOD_RULE);
    }
    const stranger = await cartOrder(t, p);
    const res = await change(t, stranger.token, o.order, { type: 'shipping_method', value: 'overnight' });
    expect(res.status).toBe(404);
    expect((await checkoutOrder(t, o.token, o.order)).shipping_method).toBe('standard');
  });
});

describe('drop-ship to the photographer’s client', () => {
  it('ships to the client at the catalogue’s fee, apart from the photographer’s saved addresses', async () => {
    const o = await cartOrder(t, p);
    const res = await dropShip(o.token, o.order);
    expect(res.status).toBe(200);
    expect(res.json().data.attributes).toMatchObject({
      drop_ship_address: { recipient: 'Ansel Adams', street: '9 Half Dome Rd', street_2: 'Cabin 2', city: 'Yosemite', state_province: 'CA', zip: '95389' },
      drop_ship_fee: 5,
      shipping_address: null,
      total: toDollars(o.subtotalCents + SPEEDS.standard + DROP_SHIP_FEE),
    });
    // Never one of the photographer's addresses: not saved, not listed, not primary.
    expect(await t.db.select().from(addresses)).not.toContainEqual(expect.objectContaining({ street: '9 Half Dome Rd' }));
    const profile = await callApi(t.app, 'GET /profile', {}, { token: o.token });
    expect(JSON.stringify(profile.json())).not.toContain('Half Dome');
    // Sent again, it replaces the address; the fee is still once per order.
    const moved = await dropShip(o.token, o.order, { ...CLIENT, street_address: '1 Tunnel View', street_address_two: '' });
    expect(moved.json().data.attributes).toMatchObject({ drop_ship_address: { street: '1 Tunnel View', street_2: null }, drop_ship_fee: 5 });
    // Local pickup ships to nobody; DELETE ships to the studio again.
    expect(await changed(t, o.token, o.order, { type: 'local_pickup', value: true })).toMatchObject({ drop_ship_address: null, drop_ship_fee: 0 });
    await changed(t, o.token, o.order, { type: 'local_pickup', value: false });
    expect((await dropShip(o.token, o.order)).json().data.attributes).toMatchObject({ local_pickup: false, drop_ship_fee: 5 });
    const removed = await noDropShip(o.token, o.order);
    expect(removed.json().data.attributes).toMatchObject({ drop_ship_address: null, drop_ship_fee: 0, total: toDollars(o.subtotalCents + SPEEDS.standard) });
    expect((await noDropShip(o.token, o.order)).status).toBe(200);
  });

  it('is placed with the client’s address and none of the studio’s; an order shipped to the studio still needs one', async () => {
    const o = await cartOrder(t, p);
    await changed(t, o.token, o.order, { type: 'used_saved_card', value: await addCard(t, o.token) });
    const place = () => callAs(t.app, 'POST /lab_orders/:guid/checkout', { params: { guid: o.order }, body: {} }, { token: o.token });
    const refused = async () => {
      const res = await place();
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toBe(NOT_READY);
    };
    await refused();
    // Shipped to the studio again: its address is needed again.
    await dropShip(o.token, o.order);
    await noDropShip(o.token, o.order);
    await refused();
    await dropShip(o.token, o.order);
    expect((await place()).status).toBe(200);
  });

  it('checks the client’s address like the address form', async () => {
    const o = await cartOrder(t, p);
    const cases: [ClientBody, string][] = [
      [{ ...CLIENT, recipient_name: '  ' }, "Enter your client's name."],
      [{ ...CLIENT, zip: '9538' }, 'The zip code is 5 digits.'],
      [{ ...CLIENT, street_address: '' }, 'Enter the street address.'],
      [{ ...CLIENT, city: '' }, 'Enter the city.'],
    ];
    for (const [body, message] of cases) {
      const res = await dropShip(o.token, o.order, body);
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).more_info.join(' ')).toContain(message);
    }
    expect((await checkoutOrder(t, o.token, o.order)).drop_ship_address).toBeNull();
  });

  it('a photographer sees and changes only their own orders’ client addresses; an admin any; a paid order none', async () => {
    const o = await cartOrder(t, p);
    expect((await dropShip(o.token, o.order)).status).toBe(200);
    const stranger = await cartOrder(t, p);
    for (const res of [
      await dropShip(stranger.token, o.order, { ...CLIENT, recipient_name: 'Thief' }),
      await noDropShip(stranger.token, o.order),
      await callApi(t.app, 'GET /lab_orders/:guid/retrieve_full_order', { params: { guid: o.order }, query: {} }, { token: stranger.token }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.response.body).not.toContain('Half Dome');
    }
    expect((await dropShip('', o.order)).status).toBe(401);
    const { user: admin, password } = await createUser(t.db, { isAdmin: true });
    const adminToken = await signIn(t.app, admin.email, password);
    expect((await dropShip(adminToken, o.order, { ...CLIENT, recipient_name: 'Imogen Cunningham' })).json().data.attributes.drop_ship_address?.recipient).toBe('Imogen Cunningham');
  });
});

describe('the all-in cost', () => {
  it('an overnight drop-ship order is charged, mailed and shown with every line of its cost', async () => {
    // No saved address: the client's address is where it goes.
    const o = await cartOrder(t, p);
    const card = await addCard(t, o.token);
    await changed(t, o.token, o.order, { type: 'used_saved_card', value: card });
    await changed(t, o.token, o.order, { type: 'shipping_method', value: 'overnight' });
    await dropShip(o.token, o.order);
    const before = await checkoutOrder(t, o.token, o.order);
    const total = o.subtotalCents + SPEEDS.overnight + DROP_SHIP_FEE;
    expect(before).toMatchObject({ prints_total: toDollars(o.subtotalCents), finishing_total: 0, shipping_total: 39, drop_ship_fee: 5, total: toDollars(total) });
    const paid = await callApi(t.app, 'POST /lab_orders/:guid/checkout', { params: { guid: o.order }, body: {} }, { token: o.token });
    expect(paid.status).toBe(200);
    const charges = (await t.db.select().from(sandboxCharges)).filter((c) => c.metadata.lab_order === o.order);
    expect(charges.map((c) => c.amountCents)).toEqual([total]);
    const receipt = t.printed.find((m) => m.startsWith(`Mail to ${o.user.email}: Receipt`)) ?? '';
    expect(receipt).toMatch(/Shipping \(OVERNIGHT\):\s+\$39\.00/);
    expect(receipt).toMatch(/Drop-ship fee:\s+\$5\.00/);
    expect(receipt).toMatch(new RegExp(`Total:\\s+\\$${toDollars(total).toFixed(2).replace('.', '\\.')}`));
    expect(receipt).toContain('Your client: Ansel Adams');
  });

  it('a catalogue file prices the speeds and the fee; an order answers the new prices', async () => {
    const o = await readyOrder(t, p, { quantity: 1 });
    await changed(t, o.token, o.order, { type: 'shipping_method', value: 'two_day' });
    await loadCatalogue(t.db, parseCatalogueFile({ ...defaultCatalogue(), shipping_speeds: { standard: '12.50', two_day: 30, overnight: 55.25 }, drop_ship_fee: 3 }));
    expect(await settings()).toMatchObject({ shipping_speeds: { standard: 12.5, two_day: 30, overnight: 55.25 }, drop_ship_fee: 3 });
    const a = (await dropShip(o.token, o.order)).json().data.attributes;
    expect(a).toMatchObject({ shipping_total: 30, drop_ship_fee: 3, total: toDollars(o.subtotalCents + toCents(30) + toCents(3)) });
    expect(() => parseCatalogueFile({ ...defaultCatalogue(), shipping_speeds: { standard: 10, two_day: -1, overnight: 'soon' } })).toThrow(/shipping_speeds\.two_day: "-1" is not a price[\s\S]*shipping_speeds\.overnight: "soon" is not a price/);
    expect(() => parseCatalogueFile({ ...defaultCatalogue(), shipping_speeds: { standard: 10, two_day: 20 } })).toThrow(/shipping_speeds\.overnight/);
    const { shipping_speeds: _s, drop_ship_fee: _f, ...without } = defaultCatalogue();
    expect(parseCatalogueFile(without)).toMatchObject({ shipping_speeds: SPEEDS, drop_ship_fee: 0 });
  });
});
