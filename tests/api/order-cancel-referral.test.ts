import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, users } from '../../server/db/schema.ts';
import { createUser, type TestApp } from './helper.ts';
import { readyOrder } from './checkout-helpers.ts';
import { callApi } from './contract-call.ts';
import { labWithAdmin, orderDetail, type Products } from './line-items-helpers.ts';
import { callAs } from './photo-helpers.ts';

/**
 * A cancelled or fully refunded order earns its referrer nothing: the referral credit its payment
 * accrued is taken back in the cancel's (or refund's) transaction, never below zero; and the
 * order detail says until when the photographer may cancel (cancel_until).
 */

describe('referral credit and cancellation', () => {
  let t: TestApp;
  let p: Products;
  let admin: string;
  beforeAll(async () => {
    ({ t, p, admin } = await labWithAdmin());
  });
  afterAll(() => t.close());

  const creditOf = async (guid: string) => (await t.db.select().from(users).where(eq(users.guid, guid)))[0]?.creditAvailableCents;
  const ledger = (guid: string) => t.db.select().from(creditLedger).where(and(eq(creditLedger.userGuid, guid)));

  /** A referrer (with a password, to read their report) and a paid order of the photographer they referred. */
  async function referredPaidOrder() {
    const referrer = await createUser(t.db, { referralCode: `REF${Math.random().toString(36).slice(2, 10).toUpperCase()}` });
    const o = await readyOrder(t, p, { quantity: 5 });
    await t.db.update(users).set({ referredByGuid: referrer.user.guid }).where(eq(users.guid, o.user.guid));
    const paid = await callAs(t.app, 'POST /lab_orders/:guid/checkout', { params: { guid: o.order }, body: {} }, { token: o.token });
    expect(paid.status).toBe(200);
    const earned = Math.round((o.subtotalCents * t.config.referralCreditPercent) / 100);
    expect(earned).toBeGreaterThan(0);
    expect(await creditOf(referrer.user.guid)).toBe(earned);
    const total = Math.round(paid.json().data.attributes.total * 100);
    return { referrer, o, earned, total };
  }

  it('a cancellation takes back the referral credit the payment earned, in its transaction, and records it', async () => {
    const { referrer, o, earned } = await referredPaidOrder();
    expect((await callAs(t.app, 'POST /lab_orders/:guid/cancel', { params: { guid: o.order } }, { token: o.token })).status).toBe(200);
    expect(await creditOf(referrer.user.guid)).toBe(0);
    const rows = await ledger(referrer.user.guid);
    expect(rows.map((r) => [r.reason, r.amountCents]).sort()).toEqual([
      ['referral', earned],
      ['referral_clawback', -earned],
    ]);
    const events = (await orderDetail(t, admin, o.order)).events ?? [];
    expect(events.find((e) => e.kind === 'cancel')?.detail).toContain(`referral credit taken back: $${(earned / 100).toFixed(2)}`);
    // The referrer's report no longer counts it as earned.
    const report = (await callApi(t.app, 'GET /photographers/:guid', { params: { guid: referrer.user.guid } }, { token: admin })).json();
    const row = JSON.stringify(report);
    expect(row).toContain('"credit_earned":0');
  });

  it('never takes the referrer below zero: what they spent is recorded as not taken back', async () => {
    const { referrer, o, earned } = await referredPaidOrder();
    // The referrer spent all but 25 cents of it meanwhile.
    const left = 25;
    await t.db.update(users).set({ creditAvailableCents: left }).where(eq(users.guid, referrer.user.guid));
    expect((await callAs(t.app, 'POST /lab_orders/:guid/cancel', { params: { guid: o.order } }, { token: o.token })).status).toBe(200);
    expect(await creditOf(referrer.user.guid)).toBe(0);
    const clawback = (await ledger(referrer.user.guid)).find((r) => r.reason === 'referral_clawback');
    expect(clawback?.amountCents).toBe(-left);
    const events = (await orderDetail(t, admin, o.order)).events ?? [];
    expect(events.find((e) => e.kind === 'cancel')?.detail).toContain(`$0.25 of $${(earned / 100).toFixed(2)} (the referrer had spent $${((earned - left) / 100).toFixed(2)})`);
  });

  it("an admin's refund of the whole charge takes the credit back; a partial refund does not", async () => {
    const { referrer, o, earned, total } = await referredPaidOrder();
    const part = 100;
    expect((await callAs(t.app, 'POST /lab_orders/:guid/refund', { params: { guid: o.order }, body: { refund_amount: (part / 100).toFixed(2), refund_note: 'One print scratched' } }, { token: admin })).status).toBe(200);
    expect(await creditOf(referrer.user.guid)).toBe(earned);
    expect((await callAs(t.app, 'POST /lab_orders/:guid/refund', { params: { guid: o.order }, body: { refund_amount: ((total - part) / 100).toFixed(2), refund_note: 'Lost in the post' } }, { token: admin })).status).toBe(200);
    expect(await creditOf(referrer.user.guid)).toBe(0);
    expect((await ledger(referrer.user.guid)).filter((r) => r.reason === 'referral_clawback').map((r) => r.amountCents)).toEqual([-earned]);
    const events = (await orderDetail(t, admin, o.order)).events ?? [];
    expect(events.filter((e) => e.kind === 'referral_clawback')).toHaveLength(1);
  });

  it('an order with no referrer cancels as before, touching nobody else', async () => {
    const o = await readyOrder(t, p);
    expect((await callAs(t.app, 'POST /lab_orders/:guid/checkout', { params: { guid: o.order }, body: {} }, { token: o.token })).status).toBe(200);
    expect((await callAs(t.app, 'POST /lab_orders/:guid/cancel', { params: { guid: o.order } }, { token: o.token })).status).toBe(200);
    expect((await t.db.select().from(creditLedger).where(eq(creditLedger.reason, 'referral_clawback'))).every((r) => r.referredUserGuid !== o.user.guid)).toBe(true);
  });

  it('the detail says until when the order may be cancelled: paid_at plus the window, null while open', async () => {
    const o = await readyOrder(t, p);
    const open = await orderDetail(t, o.token, o.order);
    expect(open.cancel_until).toBeNull();
    expect((await callAs(t.app, 'POST /lab_orders/:guid/checkout', { params: { guid: o.order }, body: {} }, { token: o.token })).status).toBe(200);
    const paid = await orderDetail(t, o.token, o.order);
    expect(Date.parse(paid.cancel_until ?? '') - Date.parse(paid.paid_at ?? '')).toBe(t.config.cancelWindowMinutes * 60_000);
  });
});
