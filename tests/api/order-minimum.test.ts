import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogueFile } from '../../server/catalogue/catalogue-file.ts';
import { defaultCatalogue } from '../../server/catalogue/default-catalogue.ts';
import { loadCatalogue } from '../../server/catalogue/load-catalogue.ts';
import { labOrders, payments, sandboxCharges } from '../../server/db/schema.ts';
import { toCents, toDollars } from '../../src/domain/money.ts';
import { orderMinimumMessage } from '../../src/domain/order-minimum.ts';
import { payOrder, readyOrder } from './checkout-helpers.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { products, type Products } from './line-items-helpers.ts';

/** The lab's order minimum (issue 34): a catalogue setting, served with the catalogue, enforced by checkout. */
let t: TestApp;
let p: Products;
beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'recorded' });
  p = await products(t);
});
afterAll(() => t.close());

const pay = (token: string, order: string) => payOrder(t, token, order);
const settings = async () => (await callApi(t.app, 'GET /calculator_catalogue', {})).json().settings;
const chargesOf = async (guid: string) => (await t.db.select().from(sandboxCharges)).filter((c) => c.metadata.lab_order === guid);

describe('the order minimum', () => {
  it('without one, any order is checked out as before', async () => {
    expect(await settings()).toMatchObject({ order_minimum: 0 });
    const o = await readyOrder(t, p, { quantity: 1 });
    expect((await pay(o.token, o.order)).status).toBe(200);
  });

  it("refuses an order below it with the cart's words and charges nothing; at it, the order goes through", async () => {
    // A minimum of three prints of the test's size: two are below it, three are at it.
    const printCents = toCents(p.size.price);
    await loadCatalogue(t.db, parseCatalogueFile({ ...defaultCatalogue(), order_minimum: toDollars(printCents * 3) }));
    p = await products(t);
    expect(await settings()).toMatchObject({ order_minimum: toDollars(printCents * 3) });

    const below = await readyOrder(t, p, { quantity: 2 });
    const res = await pay(below.token, below.order);
    expect(res.status).toBe(422);
    const message = expectErrorBody(res.json(), 422).message;
    expect(message).toBe(orderMinimumMessage(printCents * 2, printCents * 3));
    expect(message).toMatch(/^Add \$\d+\.\d\d to reach the lab's \$\d+(\.\d\d)? minimum$/);
    expect(await chargesOf(below.order)).toHaveLength(0);
    expect(await t.db.select().from(payments).innerJoin(labOrders, eq(labOrders.id, payments.labOrderId)).where(eq(labOrders.guid, below.order))).toHaveLength(0);
    expect((await t.db.select().from(labOrders).where(eq(labOrders.guid, below.order)))[0]?.status).toBe('open');

    const at = await readyOrder(t, p, { quantity: 3 });
    expect((await pay(at.token, at.order)).status).toBe(200);
    const above = await readyOrder(t, p, { quantity: 4 });
    expect((await pay(above.token, above.order)).status).toBe(200);
    expect(await chargesOf(above.order)).toHaveLength(1);
  });

  it('counts the prints and finishing, not shipping: shipping does not lift an order over it', async () => {
    const printCents = toCents(p.size.price);
    await loadCatalogue(t.db, parseCatalogueFile({ ...defaultCatalogue(), order_minimum: toDollars(printCents + 1) }));
    p = await products(t);
    const o = await readyOrder(t, p, { quantity: 1 });
    const res = await pay(o.token, o.order);
    expect(res.status).toBe(422);
    expect(expectErrorBody(res.json(), 422).message).toMatch(/^Add \$0\.01 to reach the lab's \$/);
  });

  it('refuses a catalogue file whose minimum is not an amount of money, naming it', () => {
    for (const bad of ['eighteen', -5, '18 dollars']) {
      expect(() => parseCatalogueFile({ ...defaultCatalogue(), order_minimum: bad })).toThrow(/order_minimum: "[^"]+" is not a price in dollars/);
    }
    expect(parseCatalogueFile({ ...defaultCatalogue(), order_minimum: '18' }).order_minimum).toBe(1800);
    const { order_minimum: _none, ...without } = defaultCatalogue();
    expect(parseCatalogueFile(without).order_minimum).toBe(0);
  });
});
