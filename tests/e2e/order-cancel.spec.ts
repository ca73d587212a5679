/**
 * Issue 13: a photographer cancels their paid order within the cancellation window (30 minutes by
 * default) while the lab has not started it; the card is refunded through the sandbox and the
 * photographer mailed. Outside the window, or once the lab started it, CANCEL ORDER is not offered,
 * the detail says why, and the lab refuses a cancel sent anyway.
 */
import { expect, test, type Page } from '@playwright/test';
import { dollars } from './checkout-fixtures.ts';
import { lastMailTo, signIn } from './helpers.ts';
import { adminToken, labOrder, paidShopper } from './order-actions-fixtures.ts';
import { LATE_PAYER } from './order-actions-seed.ts';
import { expectAccessible } from './screens.ts';

test.setTimeout(120_000);

const CLOSED = 'This order can no longer be cancelled: ';

/** The checks and a screenshot of the state on screen, at a phone's width and a desktop's. */
async function atBothWidths(page: Page, label: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await expectAccessible(page, label);
  }
}

test('inside the window: CANCEL ORDER asks, refunds the card through the sandbox, and mails the photographer', async ({ page }) => {
  const shopper = await paidShopper(page);
  const guid = shopper.cart.orderGuid;
  await page.goto(`/lab-orders/${guid}`);
  await expect(page.getByText(/^You can cancel this order until \d{1,2}:\d{2} [AP]M, while the lab has not started it/)).toBeVisible();
  await page.getByRole('button', { name: 'CANCEL ORDER' }).click();

  const dialog = page.getByRole('dialog', { name: 'CANCEL THIS ORDER?' });
  await expect(dialog).toContainText(`${dollars(shopper.total)} is refunded to the card you paid with`);
  await expect(dialog.getByRole('button', { name: 'KEEP ORDER' })).toBeFocused();
  await atBothWidths(page, '/order-cancel-dialog');
  await dialog.getByRole('button', { name: 'CANCEL ORDER' }).click();

  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(`${shopper.orderName} is cancelled: ${dollars(shopper.total)} is refunded to your card.`)).toBeVisible();
  const summary = page.getByRole('region', { name: 'SUMMARY' });
  await expect(summary.getByText('CANCELLED', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `This order is cancelled. ${dollars(shopper.total)} was refunded to your card.` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'CANCEL ORDER' })).toHaveCount(0);
  await atBothWidths(page, '/order-cancelled');

  // The refund went through the payment adapter (the sandbox's refund id), for the whole charge.
  const lab = await labOrder(page.request, await adminToken(page.request), guid);
  expect(lab.status).toBe('cancelled');
  expect(lab.refunds).toEqual([expect.objectContaining({ amount: shopper.total, provider_refund_id: expect.stringMatching(/^re_sandbox_/) })]);
  const mail = await lastMailTo(shopper.email);
  expect(mail).toContain(`Your order ${shopper.orderName} is cancelled`);
  expect(mail).toContain(`Refunded to your card: ${dollars(shopper.total)}`);
});

test('outside the window: no CANCEL ORDER, the detail says why, and the lab refuses a cancel sent anyway', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, LATE_PAYER);
  const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
  const list = await page.request.get('/api/v2/lab_orders', { headers: { token } });
  const late = ((await list.json()) as { data: { attributes: { guid: string; order_name: string } }[] }).data.find((o) => o.attributes.order_name === LATE_PAYER.orderName);
  if (!late) throw new Error('the seeded late order is missing');
  await page.goto(`/lab-orders/${late.attributes.guid}`);
  await expect(page.getByText(`${CLOSED}the 30 minutes after payment have passed.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'CANCEL ORDER' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'REORDER' })).toBeVisible();
  await atBothWidths(page, '/order-cancel-closed');

  const forced = await page.request.post(`/api/v2/lab_orders/${late.attributes.guid}/cancel`, { headers: { token }, data: {} });
  expect(forced.status()).toBe(422);
  expect(await forced.text()).toContain(`${CLOSED}the lab has started it or the 30 minutes have passed.`);
});

test('once the lab has started it: no CANCEL ORDER; a cancel that loses the race shows the lab\'s words', async ({ page }) => {
  const shopper = await paidShopper(page);
  const guid = shopper.cart.orderGuid;
  const admin = await adminToken(page.request);
  await page.goto(`/lab-orders/${guid}`);
  await page.getByRole('button', { name: 'CANCEL ORDER' }).click();
  // The lab starts printing while the photographer reads the question.
  const started = await page.request.patch(`/api/v2/lab_orders/${guid}`, { headers: { token: admin }, data: { type: 'status', value: 'printing' } });
  expect(started.ok(), await started.text()).toBe(true);
  await page.getByRole('dialog', { name: 'CANCEL THIS ORDER?' }).getByRole('button', { name: 'CANCEL ORDER' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: `${shopper.orderName} could not be cancelled:` });
  await expect(refusal).toContainText(`ERROR CODE: 422`);
  await expect(refusal).toContainText(`${CLOSED}the lab has started it or the 30 minutes have passed.`);
  // The page reads the order again: printing, and why it cannot be cancelled.
  await expect(page.getByText(`${CLOSED}the lab has started it.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'CANCEL ORDER' })).toHaveCount(0);
  expect((await labOrder(page.request, admin, guid)).status).toBe('printing');
});

test('a page left open loses CANCEL ORDER when the window closes', async ({ page }) => {
  const shopper = await paidShopper(page);
  // The page's own clock, from now on, under the test's hand (the lab's clock is real).
  await page.clock.install();
  await page.goto(`/lab-orders/${shopper.cart.orderGuid}`);
  await expect(page.getByRole('button', { name: 'CANCEL ORDER' })).toBeVisible();
  await page.clock.fastForward('30:01');
  await expect(page.getByText(`${CLOSED}the 30 minutes after payment have passed.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'CANCEL ORDER' })).toHaveCount(0);
});
