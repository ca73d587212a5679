import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders } from '../../server/db/schema.ts';
import type { Profile } from '../../src/contract/account.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
});
afterAll(() => t.close());

type Report = Profile['tax_reports'][number];

describe('SALES HISTORY', () => {
  it('offers every year from 2016, and a background job writes the CSV and PDF of paid orders', async () => {
    const { user, password } = await createUser(t.db, { businessName: 'Halide & Co' });
    const other = await createUser(t.db);
    const token = await signIn(t.app, user.email, password);
    await t.db.insert(labOrders).values([
      { userGuid: user.guid, orderName: 'Smith wedding', status: 'shipped', paidAt: new Date('2024-03-02T10:00:00Z'), subtotalCents: 12000, discountCents: 1000, shippingCents: 1000, totalCents: 12000 },
      { userGuid: user.guid, orderName: 'Portfolio, "best of"', status: 'paid', paidAt: new Date('2024-11-20T10:00:00Z'), subtotalCents: 5050, creditCents: 500, shippingCents: 0, boutiqueCents: 1500, totalCents: 6050 },
      { userGuid: user.guid, orderName: 'Cancelled one', status: 'cancelled', paidAt: new Date('2024-05-01T10:00:00Z'), subtotalCents: 999, totalCents: 999 },
      { userGuid: user.guid, orderName: 'Next year', status: 'paid', paidAt: new Date('2025-01-01T10:00:00Z'), subtotalCents: 100, totalCents: 100 },
      { userGuid: user.guid, orderName: 'Still open', status: 'open', subtotalCents: 700, totalCents: 700 },
      { userGuid: other.user.guid, orderName: 'Someone else', status: 'paid', paidAt: new Date('2024-06-01T10:00:00Z'), subtotalCents: 100, totalCents: 100 },
    ]);

    const profile = async () => (await callApi(t.app, 'GET /profile', {}, { token })).json().tax_reports;
    const years = await profile();
    expect(years[0]).toEqual({ year: 2016, status: 'none', csv_link: null, pdf_link: null });
    expect(years.at(-1)?.year).toBe(new Date().getFullYear());

    const asked = await callApi(t.app, 'POST /accounts/generate_tax_report', { body: { year: 2024 } }, { token });
    expect(asked.json()).toEqual({ year: 2024, status: 'generating' });

    let report: Report | undefined;
    await expect
      .poll(async () => (report = (await profile()).find((r) => r.year === 2024))?.status, { timeout: 30_000, interval: 500, message: 'the report is made' })
      .toBe('ready');

    const csv = await t.app.inject({ method: 'GET', url: report?.csv_link ?? '' });
    expect(csv.headers['content-disposition']).toContain('sales-2024.csv');
    expect(csv.body.split('\r\n')).toEqual([
      'Order,Paid on,Subtotal,Discount,Credit,Shipping,Boutique,Total',
      'Smith wedding,2024-03-02,120.00,10.00,0.00,10.00,0.00,120.00',
      '"Portfolio, ""best of""",2024-11-20,50.50,0.00,5.00,0.00,15.00,60.50',
      'TOTAL,,170.50,10.00,5.00,10.00,15.00,180.50',
      '',
    ]);
    const pdf = await t.app.inject({ method: 'GET', url: report?.pdf_link ?? '' });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.toString('latin1')).toContain('Sales report 2024');
    expect(pdf.rawPayload.toString('latin1')).toContain('%%EOF');
  }, 60_000);

  it('refuses years before 2016 or after this one', async () => {
    const { user, password } = await createUser(t.db);
    const token = await signIn(t.app, user.email, password);
    for (const year of [2015, new Date().getFullYear() + 1]) {
      const res = await callApi(t.app, 'POST /accounts/generate_tax_report', { body: { year } }, { token });
      expect(res.status).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toMatch(/^Sales reports cover 2016 to/);
    }
  });
});
