/**
 * Issue 13 against the real lab: an admin refunds part of a paid order through the sandbox
 * payments (two decimals, never more than is left, the photographer mailed), and makes the zip of
 * its originals, which DOWNLOAD ALL then serves (docs/orders.md §6; docs/api.md §6).
 */
import { expect, test } from '@playwright/test';
import { formatMoney } from '../../src/domain/money.ts';
import { savedCard, shopperWithCart } from './checkout-fixtures.ts';
import { lastMailTo, signIn } from './helpers.ts';

test.setTimeout(120_000);

test('refund with a reason, in part then the rest, shown to the photographer; at most what is left; CREATE ZIP then DOWNLOAD ALL', async ({ page, browser }) => {
  const shopper = await shopperWithCart(page);
  const { cart } = shopper;
  const headers = { token: cart.token };
  const card = await savedCard(page.request, cart.token);
  for (const [type, value] of [['used_saved_card', card.id], ['local_pickup', true]] as const) {
    expect((await page.request.patch(`/api/v2/lab_orders/${cart.orderGuid}`, { headers, data: { type, value } })).ok()).toBe(true);
  }
  const paid = await page.request.post(`/api/v2/lab_orders/${cart.orderGuid}/checkout`, { headers, data: { save_card: false } });
  expect(paid.status(), await paid.text()).toBe(200);
  const total = ((await (await page.request.get(`/api/v2/lab_orders/${cart.orderGuid}/retrieve_full_order`, { headers })).json()) as { data: { attributes: { total: number } } }).data.attributes.total;
  const totalCents = Math.round(total * 100);

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/login');
  await signIn(admin);
  await admin.goto(`/lab-orders/${cart.orderGuid}`);
  const refund = admin.getByRole('form', { name: 'Refund' });
  await expect(refund.getByText(`Paid ${formatMoney(totalCents)}; ${formatMoney(totalCents)} left to refund.`)).toBeVisible();

  await refund.getByLabel('Refund amount ($)').fill('1.234');
  await refund.getByLabel('Reason').fill('One print arrived scratched');
  await refund.getByRole('button', { name: 'REFUND' }).click();
  await expect(refund.getByRole('alert')).toHaveText('Enter the refund in dollars, like 12.50.');
  await refund.getByLabel('Refund amount ($)').fill('5.25');
  await refund.getByRole('button', { name: 'REFUND' }).click();
  await expect(refund.getByText(`Paid ${formatMoney(totalCents)}; ${formatMoney(totalCents - 525)} left to refund.`)).toBeVisible();
  await expect(refund.getByRole('listitem').filter({ hasText: '$5.25 — One print arrived scratched' })).toBeVisible();
  await expect(admin.getByRole('region', { name: 'History' }).getByRole('listitem').first()).toContainText('Refund');
  expect(await lastMailTo(shopper.email)).toContain('$5.25');

  await refund.getByLabel('Refund amount ($)').fill(((totalCents - 525) / 100 + 0.01).toFixed(2));
  await refund.getByLabel('Reason').fill('Too much');
  await refund.getByRole('button', { name: 'REFUND' }).click();
  await expect(refund.getByRole('alert')).toHaveText(`The refund is more than what is left to refund (${formatMoney(totalCents - 525)}).`);

  // The rest: the whole charge is refunded, and the photographer sees it on the order.
  await refund.getByLabel('Refund amount ($)').fill(((totalCents - 525) / 100).toFixed(2));
  await refund.getByLabel('Reason').fill('Reprinting the whole order');
  await refund.getByRole('button', { name: 'REFUND' }).click();
  await expect(refund.getByText(`Paid ${formatMoney(totalCents)}; ${formatMoney(0)} left to refund.`)).toBeVisible();
  await page.goto(`/lab-orders/${cart.orderGuid}`);
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary.getByText('REFUNDED')).toBeVisible();
  await expect(summary.getByText(formatMoney(totalCents), { exact: true }).last()).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Admin panel' })).toHaveCount(0);

  // The zip: made by a job; DOWNLOAD ALL appears once it is ready and serves a zip archive.
  await admin.getByRole('button', { name: 'CREATE ZIP' }).click();
  const download = admin.getByRole('link', { name: 'DOWNLOAD ALL' });
  await expect(download).toBeVisible({ timeout: 60_000 });
  const href = (await download.getAttribute('href')) ?? '';
  const zip = await admin.request.get(href);
  expect(zip.ok()).toBe(true);
  expect((await zip.body()).subarray(0, 2).toString('latin1')).toBe('PK');
  await expect(admin.getByRole('button', { name: 'RE-CREATE ZIP' })).toBeVisible();
  await adminContext.close();
});
