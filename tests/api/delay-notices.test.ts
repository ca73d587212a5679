import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogues, mailOutbox, orderDelays, webhookDeliveries } from '../../server/db/schema.ts';
import { DELAY_BUSINESS_DAYS, noticeLateOrders, SCHEDULE_REASON } from '../../server/services/delay-notices.ts';
import { createMailer } from '../../server/services/mail-service.ts';
import { addBusinessDays, formatShipDates, labDateOf, shipByDate, shipDatesFrom } from '../../src/domain/ship-dates.ts';
import { DEFAULT_TURNAROUND } from '../../src/domain/turnaround.ts';
import { callApi } from './contract-call.ts';
import { expectErrorBody } from './helper.ts';
import { change, payOrder, readyOrder } from './checkout-helpers.ts';
import { labWithAdmin } from './line-items-helpers.ts';

/**
 * Ship dates and delay notices (issue 34): the date promised at payment, the schedule's sweep of
 * orders past it with the clock moved forward (one notice per delay, never a second), and an
 * admin's delay with its reason.
 */
let lab: Awaited<ReturnType<typeof labWithAdmin>>;
beforeAll(async () => {
  lab = await labWithAdmin({ jobs: 'recorded' });
});
afterAll(() => lab.t.close());

const DAY_MS = 86_400_000;
// The sweep as the minute's housekeeping runs it, on the test's clock and outbox.
const sweep = () => {
  const { t } = lab;
  const mailer = createMailer(t.db, { name: 'log', deliver: async () => {} }, 'lab@example.com');
  return noticeLateOrders({ db: t.db, mailer, jobs: t.jobs, config: t.config, now: () => t.clock.now });
};
const mailsTo = async (email: string) => lab.t.db.select({ subject: mailOutbox.subject, text: mailOutbox.bodyText }).from(mailOutbox).where(eq(mailOutbox.toAddress, email));
const delayEvents = async (order: string) =>
  lab.t.db
    .select({ payload: webhookDeliveries.payload })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.orderGuid, order), eq(webhookDeliveries.eventType, 'order.delayed')));
const attributes = async (token: string, order: string) => {
  const res = await callApi(lab.t.app, 'GET /lab_orders/:guid/retrieve_full_order', { params: { guid: order }, query: {} }, { token });
  expect(res.status).toBe(200);
  return res.json().data.attributes;
};

/** A paid order of a fresh photographer with a webhook, its promise as made at payment. */
async function paidOrder() {
  const { t, p } = lab;
  const o = await readyOrder(t, p);
  expect((await callApi(t.app, 'POST /webhooks', { body: { url: 'https://partner.example.com/lab-events' } }, { token: o.token })).status).toBe(201);
  const open = await attributes(o.token, o.order);
  expect((await payOrder(t, o.token, o.order)).status).toBe(200);
  return { ...o, estimate: open.ship_dates, paid: await attributes(o.token, o.order) };
}

describe('ship dates', () => {
  it('are estimated on the final review, promised at payment and written in the receipt', async () => {
    lab.t.clock.now = new Date();
    const o = await paidOrder();
    const promised = shipDatesFrom(shipByDate(labDateOf(new Date()), DEFAULT_TURNAROUND.prints), 'standard');
    expect(o.estimate).toEqual(promised);
    expect(o.paid.ship_dates).toEqual(promised);
    expect(o.paid.delays).toEqual([]);
    const [receipt] = await mailsTo(o.user.email);
    expect(receipt?.text).toContain(formatShipDates(promised));
  });

  it('come with the catalogue as its turnaround per product family', async () => {
    const res = await callApi(lab.t.app, 'GET /calculator_catalogue', {});
    expect(res.json().settings).toMatchObject({ turnaround: DEFAULT_TURNAROUND, holidays: [] });
  });

  it("skip the lab's holidays", async () => {
    const { t } = lab;
    t.clock.now = new Date();
    const usual = shipByDate(labDateOf(new Date()), DEFAULT_TURNAROUND.prints);
    await t.db.update(catalogues).set({ holidays: [usual] }).where(eq(catalogues.active, true));
    try {
      const o = await paidOrder();
      expect(o.paid.ship_dates?.ship_by).toBe(addBusinessDays(usual, 1));
    } finally {
      await t.db.update(catalogues).set({ holidays: [] }).where(eq(catalogues.active, true));
    }
  });
});

describe('delay notices', () => {
  it('the schedule tells of an order past its promised day once per delay', async () => {
    const { t } = lab;
    t.clock.now = new Date();
    const o = await paidOrder();
    const promised = o.paid.ship_dates?.ship_by ?? '';
    // Not late on the promised day itself.
    t.clock.now = new Date(`${promised}T23:00:00Z`);
    await sweep();
    expect((await attributes(o.token, o.order)).delays).toEqual([]);

    t.clock.now = new Date(Date.parse(`${promised}T12:00:00Z`) + 3 * DAY_MS);
    const today = labDateOf(t.clock.now);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    const after = await attributes(o.token, o.order);
    const newDate = addBusinessDays(today, DELAY_BUSINESS_DAYS);
    expect(after.ship_dates?.ship_by).toBe(newDate);
    expect(after.delays).toEqual([expect.objectContaining({ old_ship_by: promised, new_ship_by: newDate, reason: SCHEDULE_REASON, declared_by: 'schedule' })]);
    // The next minute's sweep finds nothing new to tell.
    expect(await sweep()).toBe(0);
    const mails = (await mailsTo(o.user.email)).filter((m) => m.subject.includes('new ship date'));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(SCHEDULE_REASON);
    const events = await delayEvents(o.order);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({ type: 'order.delayed', data: { order: { promised_ship_date: newDate }, delay: { old_ship_by: promised, new_ship_by: newDate } } });

    // Still not shipped past the new date: a second delay, told once too.
    t.clock.now = new Date(Date.parse(`${newDate}T12:00:00Z`) + 2 * DAY_MS);
    await sweep();
    await sweep();
    expect((await attributes(o.token, o.order)).delays).toHaveLength(2);
    expect((await mailsTo(o.user.email)).filter((m) => m.subject.includes('new ship date'))).toHaveLength(2);
    expect(await delayEvents(o.order)).toHaveLength(2);
    t.clock.now = new Date();
  });

  it('leaves shipped orders alone, and keeps quiet when the photographer turned delay mails off', async () => {
    const { t, admin } = lab;
    t.clock.now = new Date();
    const shipped = await paidOrder();
    expect((await change(t, admin, shipped.order, { type: 'status', value: 'shipped' })).status).toBe(200);
    const quiet = await paidOrder();
    expect((await callApi(t.app, 'PATCH /accounts/status_mails', { body: { step: 'delayed', on: false } }, { token: quiet.token })).status).toBe(200);
    t.clock.now = new Date(Date.now() + 20 * DAY_MS);
    await sweep();
    t.clock.now = new Date();
    expect((await attributes(shipped.token, shipped.order)).delays).toEqual([]);
    expect((await attributes(quiet.token, quiet.order)).delays).toHaveLength(1);
    expect((await mailsTo(quiet.user.email)).filter((m) => m.subject.includes('new ship date'))).toEqual([]);
    // The partner's webhook is told whatever the mail switches say.
    expect(await delayEvents(quiet.order)).toHaveLength(1);
  });

  it('an admin posts a delay with a reason; a photographer may not', async () => {
    const { t, admin } = lab;
    t.clock.now = new Date();
    const o = await paidOrder();
    const promised = o.paid.ship_dates?.ship_by ?? '';
    const later = addBusinessDays(promised, 3);
    const body = { ship_by: later, reason: 'The walnut moulding is back-ordered until Tuesday.' };
    const post = (token: string, b: Record<string, unknown>) => callApi(t.app, 'POST /lab_orders/:guid/delays', { params: { guid: o.order }, body: b as typeof body }, { token });

    expect(expectErrorBody((await post(o.token, body)).json(), 403).message).toBe('Only lab admins can do that.');
    expect((await attributes(o.token, o.order)).delays).toEqual([]);

    const refusals: Record<string, unknown>[] = [
      { ship_by: promised, reason: body.reason },
      { ship_by: '2026-02-30', reason: body.reason },
      { ship_by: later, reason: '   ' },
      { ship_by: weekendAfter(promised), reason: body.reason },
    ];
    for (const b of refusals) expect((await post(admin, b)).status).toBe(422);
    expect((await attributes(o.token, o.order)).delays).toEqual([]);

    const made = await post(admin, body);
    expect(made.status).toBe(201);
    expect(made.json().data.attributes.ship_dates?.ship_by).toBe(later);
    const seen = await attributes(o.token, o.order);
    expect(seen.delays).toEqual([expect.objectContaining({ old_ship_by: promised, new_ship_by: later, reason: body.reason, declared_by: 'admin' })]);
    const [mail] = (await mailsTo(o.user.email)).filter((m) => m.subject.includes('new ship date'));
    expect(mail?.text).toContain(body.reason);
    expect(await delayEvents(o.order)).toHaveLength(1);
  });

  it('shows a photographer only their own orders’ delays', async () => {
    const { t, admin } = lab;
    t.clock.now = new Date();
    const a = await paidOrder();
    const b = await paidOrder();
    const later = addBusinessDays(a.paid.ship_dates?.ship_by ?? '', 2);
    expect((await callApi(t.app, 'POST /lab_orders/:guid/delays', { params: { guid: a.order }, body: { ship_by: later, reason: 'Paper restock' } }, { token: admin })).status).toBe(201);
    const other = await callApi(t.app, 'GET /lab_orders/:guid/retrieve_full_order', { params: { guid: a.order }, query: {} }, { token: b.token });
    expect(other.status).toBe(404);
    expect((await attributes(b.token, b.order)).delays).toEqual([]);
    expect(await t.db.select().from(orderDelays).where(eq(orderDelays.newDate, later))).not.toHaveLength(0);
  });
});

/** The Saturday after a day. */
function weekendAfter(date: string): string {
  let at = new Date(`${date}T00:00:00Z`);
  while (at.getUTCDay() !== 6) at = new Date(at.getTime() + DAY_MS);
  return labDateOf(at);
}
