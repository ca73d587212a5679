import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailTransportFor } from '../../server/adapters/mail/mail-transport.ts';
import type { Payments } from '../../server/adapters/payments/payments.ts';
import { sandboxPayments } from '../../server/adapters/payments/sandbox-payments.ts';
import { stripePayments } from '../../server/adapters/payments/stripe-payments.ts';
import { creditLedger, labOrders, mailOutbox, refunds, sandboxRefunds, users } from '../../server/db/schema.ts';
import type { ServerDeps } from '../../server/deps.ts';
import { housekeepingSteps } from '../../server/job-workers.ts';
import { createMailer } from '../../server/services/mail-service.ts';
import { REFUND_PENDING } from '../../server/services/order-money.ts';
import { recoverPendingRefunds } from '../../server/services/refund-recovery.ts';
import { changed, payOrder, readyOrder } from './checkout-helpers.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';
import { products, type Products } from './line-items-helpers.ts';
import { callAs } from './photo-helpers.ts';
import { startStripeStub, type StripeStub } from './stripe-stub.ts';

/**
 * A refund interrupted by a crash (between the provider's call and its record) is left pending,
 * and settled from the provider's own record, found by the refund's idempotency key: recorded
 * once if the provider made it, else given back (refund-recovery.ts). Both payment providers.
 */

type Provider = { name: 'sandbox' | 'stripe'; env: (stub: StripeStub) => Record<string, string>; payments: (t: TestApp, stub: StripeStub) => Payments; made: (t: TestApp, stub: StripeStub, charge: string) => Promise<number> };

const PROVIDERS: Provider[] = [
  {
    name: 'sandbox',
    env: () => ({}),
    payments: (t) => sandboxPayments(t.db),
    made: async (t, _stub, charge) => (await t.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, charge))).length,
  },
  {
    name: 'stripe',
    env: (stub) => ({ STRIPE_SECRET_KEY: 'sk_test_lab', STRIPE_PUBLISHABLE_KEY: 'pk_test_lab', STRIPE_API_URL: stub.url }),
    payments: (_t, stub) => stripePayments({ secretKey: 'sk_test_lab', publishableKey: 'pk_test_lab', apiUrl: stub.url }),
    made: async (_t, stub, charge) => stub.refunds.filter((r) => r.charge === charge).length,
  },
];

for (const provider of PROVIDERS) {
  describe(`recovery of pending refunds (${provider.name})`, () => {
    let t: TestApp;
    let p: Products;
    let admin: string;
    let adminGuid: string;
    let stub: StripeStub;
    let deps: Pick<ServerDeps, 'db' | 'mailer' | 'payments' | 'log'>;
    beforeAll(async () => {
      stub = await startStripeStub();
      t = await createTestApp(provider.env(stub));
      p = await products(t);
      const a = await createUser(t.db, { isAdmin: true });
      adminGuid = a.user.guid;
      admin = await signIn(t.app, a.user.email, a.password);
      // The parts of the process restarted after the crash.
      deps = { db: t.db, mailer: createMailer(t.db, mailTransportFor(t.config, () => {}), t.config.mailFrom), payments: provider.payments(t, stub) };
    });
    afterAll(async () => {
      await t.close();
      await stub.close();
    });

    async function paidOrder(opts: { creditCents?: number } = {}) {
      const o = await readyOrder(t, p, opts);
      if (opts.creditCents) await changed(t, o.token, o.order, { type: 'credit', value: (opts.creditCents / 100).toFixed(2) });
      const res = await payOrder(t, o.token, o.order);
      expect(res.status).toBe(200);
      const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
      if (!row?.paymentConfirmation) throw new Error('not paid by card');
      return { ...o, row, charge: row.paymentConfirmation };
    }

    /**
     * What a refund request had done when the process died: the refund reserved (pending, the
     * order's refund_cents raised), and the provider asked or not. Dated two minutes back.
     */
    async function crashedRefund(order: typeof labOrders.$inferSelect, cents: number, providerMadeIt: boolean, kind: 'refund' | 'cancel' = 'refund') {
      const key = `refund-${order.guid}-${randomUUID()}`;
      const [row] = await t.db
        .insert(refunds)
        .values({ labOrderId: order.id, amountCents: cents, note: kind === 'cancel' ? 'Cancelled by the photographer' : 'Scratched print', actorGuid: kind === 'cancel' ? order.userGuid : adminGuid, idempotencyKey: key, status: 'pending', kind, createdAt: new Date(Date.now() - 2 * 60_000) })
        .returning();
      await t.db.update(labOrders).set({ refundCents: sql`${labOrders.refundCents} + ${cents}`, ...(kind === 'cancel' ? { status: 'cancelled', cancelledAt: new Date() } : {}) }).where(eq(labOrders.id, order.id));
      if (providerMadeIt) await deps.payments.refund({ chargeId: order.paymentConfirmation ?? '', amountCents: cents, idempotencyKey: key, metadata: { order: order.guid } });
      return row;
    }
    const detail = async (order: string) => (await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: order } }, { token: admin })).json().data.attributes;
    const mailsTo = async (email: string) => (await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).map((m) => m.subject);

    it('made before the crash: recorded once, with its event and the mail; the provider refunded once', async () => {
      const o = await paidOrder();
      await crashedRefund(o.row, 525, true);
      expect((await detail(o.order)).refunds?.[0]).toMatchObject({ status: 'pending', provider_refund_id: null });
      expect(await recoverPendingRefunds(deps)).toBe(1);
      const after = await detail(o.order);
      expect(after.refunds).toEqual([expect.objectContaining({ amount: 5.25, status: 'succeeded', provider_refund_id: expect.stringMatching(/^re_/) })]);
      expect(after.refund_amount).toBe(5.25);
      expect(after.events?.[0]).toMatchObject({ kind: 'refund', to: '5.25', actor_guid: adminGuid, detail: 'Scratched print' });
      expect(await mailsTo(o.user.email)).toContain(`A refund of $5.25 for your order ${o.row.orderName}`);
      // A second sweep (another minute) finds nothing to do.
      expect(await recoverPendingRefunds(deps)).toBe(0);
      expect(await provider.made(t, stub, o.charge)).toBe(1);
    });

    it('not made before the crash: the reservation is given back, the history says so, the amount is refundable again', async () => {
      const o = await paidOrder();
      const total = o.row.totalCents;
      await crashedRefund(o.row, total, false);
      expect((await detail(o.order)).refund_amount).toBe(total / 100);
      // Housekeeping runs the same sweep every minute.
      await housekeepingSteps({ ...(deps as ServerDeps) })['pending refunds']?.();
      const after = await detail(o.order);
      expect(after.refunds).toEqual([]);
      expect(after.refund_amount).toBe(0);
      expect(after.events?.[0]).toMatchObject({ kind: 'refund', actor_guid: null, detail: `$${(total / 100).toFixed(2)} interrupted before the payment provider made it: nothing was refunded` });
      expect(await mailsTo(o.user.email)).not.toContainEqual(expect.stringContaining('A refund of'));
      expect(await provider.made(t, stub, o.charge)).toBe(0);
      expect((await callAs(t.app, 'POST /lab_orders/:guid/refund', { params: { guid: o.order }, body: { refund_amount: (total / 100).toFixed(2) } }, { token: admin })).status).toBe(200);
    });

    it('a refund still within its first minute is left to its request', async () => {
      const o = await paidOrder();
      const row = await crashedRefund(o.row, 100, false);
      await t.db.update(refunds).set({ createdAt: new Date() }).where(eq(refunds.id, row?.id ?? ''));
      expect(await recoverPendingRefunds(deps)).toBe(0);
      expect((await detail(o.order)).refunds?.[0]).toMatchObject({ status: 'pending' });
      await t.db.update(refunds).set({ createdAt: new Date(Date.now() - 2 * 60_000) }).where(eq(refunds.id, row?.id ?? ''));
      expect(await recoverPendingRefunds(deps)).toBe(1);
    });

    it('a cancellation interrupted before the refund: the refund is asked again (once), the credit comes back, the order stays cancelled', async () => {
      const o = await paidOrder({ creditCents: 300 });
      const before = (await t.db.select().from(users).where(eq(users.guid, o.user.guid)))[0]?.creditAvailableCents ?? 0;
      await crashedRefund(o.row, o.row.totalCents, false, 'cancel');
      expect(await recoverPendingRefunds(deps)).toBe(1);
      const [row] = await t.db.select().from(labOrders).where(eq(labOrders.guid, o.order));
      expect(row?.status).toBe('cancelled');
      expect(row?.refundCents).toBe(o.row.totalCents);
      expect((await t.db.select().from(users).where(eq(users.guid, o.user.guid)))[0]?.creditAvailableCents).toBe(before + 300);
      expect(await t.db.select().from(creditLedger).where(eq(creditLedger.labOrderId, o.row.id))).toContainEqual(expect.objectContaining({ reason: 'cancel_returned', amountCents: 300 }));
      expect(await mailsTo(o.user.email)).toContain(`Your order ${o.row.orderName} is cancelled`);
      expect(await provider.made(t, stub, o.charge)).toBe(1);
      expect(await recoverPendingRefunds(deps)).toBe(0);
    });

    // Only Stripe can fail to answer: the sandbox is the lab's own database.
    it.runIf(provider.name === 'stripe')('Stripe does not answer the refund: 502 with the refund pending, then the sweep finds none and gives it back', async () => {
      const o = await paidOrder();
      // The SDK's own retries (2) fail too.
      stub.failRefunds = 3;
      const res = await callAs(t.app, 'POST /lab_orders/:guid/refund', { params: { guid: o.order }, body: { refund_amount: '3.00', refund_note: 'Late' } }, { token: admin });
      expect(res.status).toBe(502);
      expect(expectErrorBody(res.json(), 502).message).toBe(REFUND_PENDING);
      expect((await detail(o.order)).refunds?.[0]).toMatchObject({ status: 'pending', amount: 3 });
      await t.db.update(refunds).set({ createdAt: new Date(Date.now() - 2 * 60_000) }).where(eq(refunds.labOrderId, o.row.id));
      expect(await recoverPendingRefunds(deps)).toBe(1);
      expect((await detail(o.order)).refund_amount).toBe(0);
      // Every try carried the refund's one key.
      const keys = new Set(stub.seen.filter((s) => s.path === '/v1/refunds' && s.method === 'POST').slice(-3).map((s) => s.idempotencyKey));
      expect(keys.size).toBe(1);
    });
  });
}
