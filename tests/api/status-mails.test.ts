import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../server/db/schema.ts';
import { callApi } from './contract-call.ts';
import { expectErrorBody } from './helper.ts';
import { change } from './checkout-helpers.ts';
import { labWithAdmin, orderWithPhotos } from './line-items-helpers.ts';

/**
 * Order status mails (issue 34): one mail per step a photographer cares about, each of which they
 * can turn off on /account; the outbox then queues nothing for that step.
 */
let lab: Awaited<ReturnType<typeof labWithAdmin>>;
beforeAll(async () => {
  lab = await labWithAdmin();
});
afterAll(() => lab.t.close());

const subjectsTo = async (email: string) => (await lab.t.db.select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.toAddress, email))).map((m) => m.subject);

describe('order status mails', () => {
  it('mails each step, and not one the photographer turned off', async () => {
    const { t, admin } = lab;
    const o = await orderWithPhotos(t, 1);
    const got = await callApi(t.app, 'GET /accounts/status_mails', {}, { token: o.token });
    expect(got.json().data).toEqual({ received: true, printing: true, shipped: true, delayed: true, cancelled: true, refunded: true });
    const off = await callApi(t.app, 'PATCH /accounts/status_mails', { body: { step: 'printing', on: false } }, { token: o.token });
    expect(off.json().data).toMatchObject({ printing: false, shipped: true });
    // Twice off is still off once; the others stay as they were.
    expect((await callApi(t.app, 'PATCH /accounts/status_mails', { body: { step: 'printing', on: false } }, { token: o.token })).json().data.printing).toBe(false);

    const name = (await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: o.order } }, { token: o.token })).json().data.attributes.order_name;
    for (const status of ['paid', 'printing', 'shipped']) expect((await change(t, admin, o.order, { type: 'status', value: status })).status).toBe(200);
    expect(await subjectsTo(o.user.email)).toEqual([`Your order ${name} has shipped`]);

    // Back on: the next time the order is printing, the mail goes.
    expect((await callApi(t.app, 'PATCH /accounts/status_mails', { body: { step: 'printing', on: true } }, { token: o.token })).json().data.printing).toBe(true);
    expect((await change(t, admin, o.order, { type: 'status', value: 'printing' })).status).toBe(200);
    expect(await subjectsTo(o.user.email)).toContain(`Your order ${name} is printing`);
  });

  it('refuses a step it does not know, and callers without a session', async () => {
    const { t } = lab;
    const o = await orderWithPhotos(t, 1);
    const wrong = await callApi(t.app, 'PATCH /accounts/status_mails', { body: { step: 'framing' as never, on: false } }, { token: o.token });
    expect(expectErrorBody(wrong.json(), 422).more_info.join(' ')).toContain('step is one of received, printing, shipped, delayed, cancelled, refunded.');
    expect((await callApi(t.app, 'GET /accounts/status_mails', {})).status).toBe(401);
  });
});
